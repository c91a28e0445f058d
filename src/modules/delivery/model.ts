/**
 * Shapes of the delivery API (docs/api.md "Delivery API", "Wire format" (D1, D6),
 * "Localization" (D40), "The `fields` parameter" (D41)): the
 * workspace schema a delivery request works against, the entry rows the repository returns and
 * the wire entry the routes send.
 */
import type { Field } from '../content-types/model.js';
import type { SourceMap } from '../read/source-map.js';

/** The workspace as delivery needs it: identity and locales. */
export interface DeliveryWorkspace {
  id: string;
  name: string;
  slug: string;
  default_locale: string;
  locales: string[];
}

/** A content type with its fields in order and a by-name index. */
export interface DeliveryType {
  id: string;
  slug: string;
  name: string;
  is_block: boolean;
  orderable: boolean;
  display_field: string | null;
  fields: Field[];
  fieldsByName: ReadonlyMap<string, Field>;
}

/** Every content type of one workspace, by id and by slug, plus the workspace. */
export interface DeliverySchema {
  workspace: DeliveryWorkspace;
  types: DeliveryType[];
  byId: ReadonlyMap<string, DeliveryType>;
  bySlug: ReadonlyMap<string, DeliveryType>;
}

/** A delivery key's visibility, declared by the read model (src/modules/read/perspective.ts). */
export type { Visibility } from '../read/perspective.js';

/** Values a sort key can take in SQL (and in a cursor). */
export type SortValue = string | number | boolean | null;

/** An entry row as read for delivery, with its translation for the requested locale (if joined). */
export interface EntryRow {
  id: string;
  workspace_id: string;
  content_type_id: string;
  slug: string;
  status: string;
  /** Default-locale data: JSON text (SQLite) or the parsed object (PostgreSQL). */
  data: unknown;
  position: number;
  publish_at: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
  /** The version readers of the published perspective see (null while never published). */
  published_version?: number | null;
  /** Data of the translation in the requested locale; null when there is none (or none was asked). */
  tr_data: unknown;
  /** The value of the sort key, present on list rows (cursors are built from it). */
  sort_value?: SortValue;
}

/** A related entry row (relations, D41): just what `{id, slug, type, ...fields}` needs. */
export interface RelatedRow {
  id: string;
  content_type_id: string;
  slug: string;
  data: unknown;
  tr_data: unknown;
}

/**
 * An entry on the delivery wire: `data` is the JSON-encoded, locale-resolved data (D1, D6: no
 * `translations`); `is_fallback` is present when a locale was requested.
 */
export interface DeliveryEntry {
  id: string;
  content_type_id: string;
  workspace_id: string;
  slug: string;
  status: string;
  data: string;
  position: number;
  publish_at: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
  is_fallback?: boolean;
}

/** `meta` of a delivery list (docs/api.md "Pagination"); offset-only members are absent in cursor mode. */
export interface DeliveryListMeta {
  total_data?: number;
  /** false when total_data is a lower bound (a filtered count reached its cap); absent when exact. */
  total_is_exact?: false;
  current_page?: number;
  page_size: number;
  total_pages?: number;
  next_cursor: string | null;
  locale_requested?: string;
  /** D140: the answer's Content Source Map, when asked for (preview keys). */
  source_map?: SourceMap;
}
