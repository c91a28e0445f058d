/**
 * Localization of delivered entries (docs/api.md "Localization" (D40), rules 1-3).
 *
 * - `locale` must be one of the workspace's locales (else 400); absent means the default locale.
 * - Per field: a localizable field takes the translation's value when the translation holds a
 *   non-null value for it, else the default-locale value from `data`; other fields always come
 *   from `data` (translations hold localizable fields only).
 * - `is_fallback` is true when the requested locale is not the default one and the entry has no
 *   translation for it.
 */
import { invalid } from '../../errors.js';
import type { Field } from '../content-types/model.js';
import type { DeliveryWorkspace } from './model.js';

export interface RequestedLocale {
  /** The locale data is resolved for (the requested one or the default). */
  locale: string;
  /** The locale as sent, or null when the request named none. */
  requested: string | null;
  isDefault: boolean;
}

/** Checks `locale` against the workspace (400 at `query.locale`) and returns the locale to use. */
export function resolveRequestedLocale(workspace: DeliveryWorkspace, locale: string | undefined): RequestedLocale {
  if (locale === undefined) return { locale: workspace.default_locale, requested: null, isDefault: true };
  if (!workspace.locales.includes(locale)) {
    throw invalid('query.locale', `'${locale}' is not a locale of this workspace; use one of ${workspace.locales.join(', ')}`);
  }
  return { locale, requested: locale, isDefault: locale === workspace.default_locale };
}

/** Whether localizedValue takes `field` from the translation (else from the default data). */
export function fromTranslation(field: Pick<Field, 'name' | 'localizable'>, translation: Record<string, unknown> | null): boolean {
  if (!field.localizable || !translation) return false;
  const v = translation[field.name];
  return v !== undefined && v !== null;
}

/** The value of `field` for the requested locale (per-field fallback to the default data). */
export function localizedValue(field: Field, data: Record<string, unknown>, translation: Record<string, unknown> | null): unknown {
  return fromTranslation(field, translation) ? translation![field.name] : data[field.name];
}

/** The locale localizedValue read `field` in: the requested one when the translation held it, else the default (D140's `locale`). */
export function valueLocale(
  field: Pick<Field, 'name' | 'localizable'>,
  translation: Record<string, unknown> | null,
  locale: RequestedLocale,
  defaultLocale: string,
): string {
  return fromTranslation(field, translation) ? locale.locale : defaultLocale;
}

/** D40: fallback when a non-default locale was asked for and the entry has no translation in it. */
export function isFallback(locale: RequestedLocale, hasTranslation: boolean): boolean {
  return !locale.isDefault && !hasTranslation;
}
