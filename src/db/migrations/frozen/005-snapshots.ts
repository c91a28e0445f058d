/**
 * Frozen copy of the code migration 005 runs to build version 1 of every existing entry and page:
 * reading stored JSON columns, the SEO object of a page and the snapshot shapes of entries and
 * pages, exactly as they were when the migration was written (src/lib/json.ts,
 * src/modules/entries/snapshot.ts, src/modules/pages/snapshot.ts and seo.ts, pages/model.ts).
 *
 * Never edited: a migration must do the same thing on every database it ever runs on, whatever
 * the live code later becomes (src/db/migrate.ts explains the rule). A later change of the
 * snapshot format belongs in a new migration with its own frozen code.
 */

/** The parsed value of a stored JSON column (SQLite hands back text, PostgreSQL an object). */
export function fromJsonColumn<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T;
    } catch {
      return fallback;
    }
  }
  return value as T;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A stored JSON column as an object; anything else reads as `{}`. */
export function objectOf(value: unknown): Record<string, unknown> {
  const v = fromJsonColumn<unknown>(value, {});
  return isPlainObject(v) ? v : {};
}

const SEO_KEYS = ['title', 'description', 'keywords', 'og_image', 'canonical'] as const;

interface Seo {
  title: string | null;
  description: string | null;
  keywords: string[];
  og_image: string | null;
  canonical: string | null;
}

type SeoOverrides = { [K in keyof Seo]?: NonNullable<Seo[K]> };

const EMPTY_SEO: Readonly<Seo> = Object.freeze({ title: null, description: null, keywords: [], og_image: null, canonical: null });

/** The SEO keys of a stored translation object. */
export function pickSeo(value: Record<string, unknown>): SeoOverrides {
  const out: Record<string, unknown> = {};
  for (const k of SEO_KEYS) if (value[k] !== undefined && value[k] !== null) out[k] = value[k];
  return out as SeoOverrides;
}

/** Reads a stored SEO object (older rows may miss keys): every key, null where nothing was given. */
export function seoFromColumn(value: unknown): Seo {
  const values = isPlainObject(value) ? pickSeo(value) : {};
  return { ...EMPTY_SEO, keywords: [], ...values };
}

interface TranslationRow {
  id: number;
  locale: string;
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** The snapshot of an entry's working copy: its default-locale data and its translations. */
export function entrySnapshotOf(entry: { data: Record<string, unknown>; translations: TranslationRow[] }) {
  return {
    data: entry.data,
    translations: entry.translations.map((t) => ({ id: t.id, locale: t.locale, data: t.data, created_at: t.created_at, updated_at: t.updated_at })),
  };
}

interface BlockRow {
  id: string;
  block_type_id: string;
  type: string;
  parent_id: string | null;
  position: number;
  data: Record<string, unknown>;
}

/** The snapshot of a page's working copy: SEO, SEO translations, blocks and block translations. */
export function pageSnapshotOf(content: {
  page: { seo: Seo };
  blocks: BlockRow[];
  seoTranslations: { id: number; locale: string; seo: SeoOverrides }[];
  blockTranslations: { id: number; block_id: string; locale: string; data: Record<string, unknown> }[];
}) {
  return {
    seo: content.page.seo,
    seo_translations: content.seoTranslations.map((t) => ({ id: t.id, locale: t.locale, seo: t.seo })),
    blocks: content.blocks.map((b) => ({ id: b.id, block_type_id: b.block_type_id, type: b.type, parent_id: b.parent_id, position: b.position, data: b.data })),
    block_translations: content.blockTranslations.map((t) => ({ id: t.id, block_id: t.block_id, locale: t.locale, data: t.data })),
  };
}
