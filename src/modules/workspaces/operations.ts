/**
 * Workspace operations: create (bootstrap, import, demo) and locale management.
 * Rules: slugs match `^[a-z0-9]+(?:-[a-z0-9]+)*$` (D31); locale codes are 2 to 10 characters
 * (api.md Limits) of letters, digits and hyphens; the default locale is one of the locales.
 */
import type { Context } from '../../context.js';
import { AppError, invalid } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { SLUG_PATTERN } from '../../lib/slugs.js';
import { iso } from '../../lib/time.js';
import { findWorkspaceBySlug, insertWorkspace, updateWorkspaceLocales, type Workspace } from './repository.js';

export const LOCALE_PATTERN = /^[A-Za-z0-9-]{2,10}$/;

export interface CreateWorkspaceInput {
  slug: string;
  name?: string;
  default_locale?: string;
  locales?: string[];
}

/** Checks a locale list; returns it de-duplicated with the default first. Throws VALIDATION_FAILED. */
export function normalizeLocales(defaultLocale: string, locales: string[]): string[] {
  for (const l of [defaultLocale, ...locales]) {
    if (!LOCALE_PATTERN.test(l)) throw invalid('locales', `locale '${l}' must be 2 to 10 letters, digits or hyphens`);
  }
  return [...new Set([defaultLocale, ...locales])];
}

/** Creates a workspace; 409 SLUG_TAKEN when the slug is used. */
export async function createWorkspace(ctx: Context, input: CreateWorkspaceInput): Promise<Workspace> {
  if (!SLUG_PATTERN.test(input.slug)) throw invalid('slug', 'must be lowercase letters, digits and single hyphens');
  const defaultLocale = input.default_locale ?? 'en';
  const locales = normalizeLocales(defaultLocale, input.locales ?? [defaultLocale]);
  if (await findWorkspaceBySlug(ctx.db, input.slug)) throw new AppError('SLUG_TAKEN', `workspace '${input.slug}' already exists`);
  const now = iso(ctx.clock());
  const ws: Workspace = {
    id: newId(),
    name: input.name ?? input.slug,
    slug: input.slug,
    default_locale: defaultLocale,
    locales,
    preview_url_template: null,
    created_at: now,
    updated_at: now,
  };
  await insertWorkspace(ctx.db, ws);
  return ws;
}

/** Adds locales to a workspace (keeps existing ones, optionally changes the default). */
export async function addWorkspaceLocales(ctx: Context, ws: Workspace, locales: string[], defaultLocale = ws.default_locale): Promise<Workspace> {
  const merged = normalizeLocales(defaultLocale, [...ws.locales, ...locales]);
  if (merged.length === ws.locales.length && defaultLocale === ws.default_locale) return ws;
  const now = iso(ctx.clock());
  await updateWorkspaceLocales(ctx.db, ws.id, defaultLocale, merged, now);
  return { ...ws, default_locale: defaultLocale, locales: merged, updated_at: now };
}
