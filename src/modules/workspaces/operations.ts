/**
 * Workspace operations: create (bootstrap, import, demo), locale management and the settings the
 * Studio edits (D91: name, locales, default locale, preview URL template).
 * Rules: slugs match `^[a-z0-9]+(?:-[a-z0-9]+)*$` (D31); locale codes are 2 to 10 characters
 * (docs/api.md "Localization") of letters, digits and hyphens; the default locale is one of the locales.
 * Settings (PATCH /workspace):
 * - a locale still holding translations (entries, page SEO, blocks; working or published copies)
 *   cannot be removed: 400 naming how many;
 * - the default locale can change only while the workspace holds no entries and no pages.
 *   Default-locale values live in the items' own columns and every other locale in translation
 *   rows; switching the default would mean moving every value between the two, so Quire refuses
 *   (400) rather than reinterpret stored content;
 * - `preview_url_template` is an http(s) URL whose only placeholders are {type}, {slug}, {id},
 *   {locale} and {token}, at most 2,000 characters, or null.
 */
import type { Context } from '../../context.js';
import { AppError, invalid } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { SLUG_PATTERN } from '../../lib/slugs.js';
import { iso } from '../../lib/time.js';
import { withTransaction } from '../../db/transaction.js';
import { auditEntry, changedKeys, recordAudit, workspaceTarget } from '../audit/record.js';
import { lockRows } from '../../db/lock.js';
import type { Actor } from '../auth/permissions.js';
import { authorize } from '../access/authorize.js';
import {
  countLocaleTranslations,
  findWorkspaceById,
  findWorkspaceBySlug,
  holdsContent,
  insertWorkspace,
  updateWorkspaceLocales,
  updateWorkspaceSettings,
  type Workspace,
} from './repository.js';

export const LOCALE_PATTERN = /^[A-Za-z0-9-]{2,10}$/;

export interface CreateWorkspaceInput {
  slug: string;
  name?: string;
  default_locale?: string;
  locales?: string[];
  /** checked like a PATCH's (checkPreviewTemplate); absent: none */
  preview_url_template?: string | null;
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
  if (input.preview_url_template) checkPreviewTemplate(input.preview_url_template);
  if (await findWorkspaceBySlug(ctx.db, input.slug)) throw new AppError('SLUG_TAKEN', `workspace '${input.slug}' already exists`);
  const now = iso(ctx.clock());
  const ws: Workspace = {
    id: newId(),
    name: input.name ?? input.slug,
    slug: input.slug,
    default_locale: defaultLocale,
    locales,
    preview_url_template: input.preview_url_template ?? null,
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

export const PREVIEW_PLACEHOLDERS = ['type', 'slug', 'id', 'locale', 'token'] as const;

/** Checks a preview URL template; throws 400 at `body.preview_url_template`. */
export function checkPreviewTemplate(template: string): void {
  const bad = (message: string) => invalid('body.preview_url_template', message);
  if (template.length > 2000) throw bad('must be at most 2,000 characters');
  const unknown = [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]).find((name) => !(PREVIEW_PLACEHOLDERS as readonly string[]).includes(name));
  if (unknown !== undefined) throw bad(`unknown placeholder {${unknown}}; use ${PREVIEW_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`);
  const filled = template.replace(/\{(type|slug|id|locale|token)\}/g, 'x');
  if (/[{}]/.test(filled)) throw bad('has an unmatched { or }');
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    throw bad('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('must be an http(s) URL');
}

export interface WorkspaceSettingsPatch {
  name?: string;
  locales?: string[];
  default_locale?: string;
  preview_url_template?: string | null;
}

/** GET /workspace. */
export async function getWorkspace(ctx: Context, actor: Actor): Promise<Workspace> {
  const ws = await findWorkspaceById(ctx.db, actor.workspaceId);
  if (!ws) throw new AppError('NOT_FOUND', 'workspace not found');
  return ws;
}

/** PATCH /workspace (owners and admins; the route admits sessions only). */
export async function updateWorkspace(ctx: Context, actor: Actor, patch: WorkspaceSettingsPatch): Promise<Workspace> {
  authorize(actor, 'settings:update');
  const name = patch.name?.trim();
  if (patch.name !== undefined && !name) throw invalid('body.name', 'must not be empty');
  for (const [i, l] of (patch.locales ?? []).entries()) {
    if (!LOCALE_PATTERN.test(l)) throw invalid(`body.locales.${i}`, `locale '${l}' must be 2 to 10 letters, digits or hyphens`);
  }
  if (patch.locales !== undefined && patch.locales.length === 0) throw invalid('body.locales', 'must hold at least one locale');
  if (patch.default_locale !== undefined && !LOCALE_PATTERN.test(patch.default_locale))
    throw invalid('body.default_locale', 'must be 2 to 10 letters, digits or hyphens');
  if (typeof patch.preview_url_template === 'string') checkPreviewTemplate(patch.preview_url_template);
  return withTransaction(ctx.db, async (db) => {
    await lockRows(db, 'workspaces', { id: actor.workspaceId });
    const ws = await findWorkspaceById(db, actor.workspaceId);
    if (!ws) throw new AppError('NOT_FOUND', 'workspace not found');
    const defaultLocale = patch.default_locale ?? ws.default_locale;
    const locales = patch.locales ? [...new Set(patch.locales)] : ws.locales;
    if (!locales.includes(defaultLocale)) {
      throw invalid(
        patch.default_locale !== undefined ? 'body.default_locale' : 'body.locales',
        `the default locale '${defaultLocale}' must be one of the locales`,
      );
    }
    if (defaultLocale !== ws.default_locale && (await holdsContent(db, ws.id))) {
      throw invalid(
        'body.default_locale',
        'the default locale can only change while the workspace holds no entries or pages (default-locale values are stored apart from translations)',
      );
    }
    for (const removed of ws.locales.filter((l) => !locales.includes(l))) {
      const n = await countLocaleTranslations(db, ws.id, removed);
      if (n > 0) throw invalid('body.locales', `locale '${removed}' still holds ${n} translation${n === 1 ? '' : 's'}; remove them before removing the locale`);
    }
    // The default first, as everywhere else (the codes were checked above, with their paths).
    const ordered = normalizeLocales(defaultLocale, locales);
    const next = {
      name: name ?? ws.name,
      default_locale: defaultLocale,
      locales: ordered,
      preview_url_template: patch.preview_url_template === undefined ? ws.preview_url_template : patch.preview_url_template,
    };
    const now = iso(ctx.clock());
    await updateWorkspaceSettings(db, ws.id, next, now);
    const before = { name: ws.name, default_locale: ws.default_locale, locales: ws.locales, preview_url_template: ws.preview_url_template };
    const changedFields = changedKeys(before, next);
    await recordAudit(db, auditEntry(ws.id, now, actor, 'workspace.settings_updated', workspaceTarget(ws), changedFields));
    return { ...ws, ...next, updated_at: now };
  });
}
