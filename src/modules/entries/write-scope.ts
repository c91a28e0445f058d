/**
 * What an entry write changes, as the permission check needs it (D120, docs/access.md "Roles and
 * permissions"): the locales whose values change (the default locale for `data` and the slug) and
 * the fields whose values change in any locale. A value sent unchanged is no write of it, so a
 * translator may send the default locale's `data` as it is beside the German translation.
 */
import { changedKeys } from '../audit/record.js';
import type { EntryData } from './model.js';

interface Values {
  slug: string | null;
  data: EntryData;
  translations: readonly { locale: string; data: EntryData }[];
}

/** The written side: `translations` undefined keeps the stored ones. */
interface Written {
  slug: string | undefined;
  data: EntryData;
  translations: readonly { locale: string; data: EntryData }[] | undefined;
}

/**
 * The locales and fields a write from `before` (null: a new entry, nothing before) to `after`
 * changes, in the workspace whose default locale is `defaultLocale`.
 */
export function entryWriteScope(before: Values | null, after: Written, defaultLocale: string): { locales: string[]; fields: string[] } {
  const locales = new Set<string>();
  const fields = new Set<string>();
  const defaultFields = changedKeys(before?.data ?? {}, after.data);
  for (const f of defaultFields) fields.add(f);
  if (defaultFields.length > 0 || (after.slug !== undefined && after.slug !== (before?.slug ?? null))) locales.add(defaultLocale);
  if (after.translations !== undefined) {
    const was = new Map((before?.translations ?? []).map((t) => [t.locale, t.data]));
    const now = new Map(after.translations.map((t) => [t.locale, t.data]));
    for (const locale of new Set([...was.keys(), ...now.keys()])) {
      const changed = changedKeys(was.get(locale) ?? {}, now.get(locale) ?? {});
      if (changed.length === 0) continue;
      locales.add(locale);
      for (const f of changed) fields.add(f);
    }
  }
  return { locales: [...locales], fields: [...fields] };
}
