/**
 * The parts of a Contentful space export (`contentful space export`, JSON) that Quire imports:
 * locales, content types with their fields, entries and assets. readExport checks the shape
 * before anything is written, so a wrong or truncated file answers one clear 400
 * VALIDATION_FAILED instead of a half-done import.
 */
import { invalid, validationError, type ErrorDetail } from '../../../errors.js';
import { isPlainObject } from '../../../lib/json.js';

/** `{sys: {type: 'Link', linkType: 'Entry' | 'Asset', id}}` */
export interface CfLink {
  sys: { type: 'Link'; linkType: string; id: string };
}

export interface CfLocale {
  code: string;
  name?: string;
  default?: boolean;
}

/** A field validation; only the keys the importer reads are typed. */
export interface CfValidation {
  linkContentType?: string[];
  in?: unknown[];
  unique?: boolean;
  [key: string]: unknown;
}

export interface CfField {
  id: string;
  name?: string;
  /** Symbol, Text, RichText, Integer, Number, Boolean, Date, Object, Location, Link, Array, ... */
  type: string;
  linkType?: string;
  localized?: boolean;
  required?: boolean;
  disabled?: boolean;
  omitted?: boolean;
  validations?: CfValidation[];
  items?: { type: string; linkType?: string; validations?: CfValidation[] };
}

export interface CfContentType {
  sys: { id: string };
  name: string;
  description?: string | null;
  displayField?: string | null;
  fields: CfField[];
}

/** Field values keyed by field id, then by locale code. */
export type CfFields = Record<string, Record<string, unknown>>;

/**
 * The publishing facts of an entry's `sys`: `version` counts every save (a publish too),
 * `publishedVersion` is the version that was published (absent: never published, or unpublished
 * since), `archivedVersion` is set while the entry is archived.
 */
export interface CfSys {
  id: string;
  version?: number;
  publishedVersion?: number;
  archivedVersion?: number;
}

export interface CfEntry {
  sys: CfSys & { contentType: { sys: { id: string } } };
  fields: CfFields;
}

export interface CfAssetFile {
  url?: string;
  fileName?: string;
  contentType?: string;
  details?: { size?: number; image?: { width?: number; height?: number } };
}

export interface CfAsset {
  sys: CfSys;
  fields: { title?: Record<string, unknown>; description?: Record<string, unknown>; file?: Record<string, CfAssetFile> };
}

export interface ContentfulExport {
  locales: CfLocale[];
  contentTypes: CfContentType[];
  entries: CfEntry[];
  assets: CfAsset[];
}

/** The top-level lists of an export that the importer reads, in the order their problems are reported. */
export const EXPORT_LISTS = ['locales', 'contentTypes', 'entries', 'assets'] as const;
export type ExportList = (typeof EXPORT_LISTS)[number];

function sysId(item: Record<string, unknown>): unknown {
  return isPlainObject(item.sys) ? item.sys.id : undefined;
}

/**
 * Checks one item (an object) of list `list` at `path` (`file.entries.3`), adding its problems to
 * `errors`: a locale needs a code, a content type an id, a name and fields with string ids and
 * types, an entry an id and a content type link, an asset an id; `fields` must be an object.
 */
export function checkExportItem(list: ExportList, item: Record<string, unknown>, path: string, errors: ErrorDetail[]): void {
  switch (list) {
    case 'locales':
      if (typeof item.code !== 'string' || !item.code) errors.push({ path: `${path}.code`, message: 'must be a locale code' });
      return;
    case 'contentTypes':
      if (typeof sysId(item) !== 'string') errors.push({ path: `${path}.sys.id`, message: 'must be a string' });
      if (typeof item.name !== 'string') errors.push({ path: `${path}.name`, message: 'must be a string' });
      if (!Array.isArray(item.fields)) errors.push({ path: `${path}.fields`, message: 'must be an array' });
      else {
        item.fields.forEach((f: unknown, i: number) => {
          if (!isPlainObject(f) || typeof f.id !== 'string' || typeof f.type !== 'string')
            errors.push({ path: `${path}.fields.${i}`, message: 'must have a string id and type' });
        });
      }
      return;
    case 'entries': {
      const sys = item.sys;
      if (typeof sysId(item) !== 'string') errors.push({ path: `${path}.sys.id`, message: 'must be a string' });
      const ctId = isPlainObject(sys) && isPlainObject(sys.contentType) && isPlainObject(sys.contentType.sys) ? sys.contentType.sys.id : undefined;
      if (typeof ctId !== 'string') errors.push({ path: `${path}.sys.contentType`, message: 'must link a content type' });
      if (item.fields !== undefined && !isPlainObject(item.fields)) errors.push({ path: `${path}.fields`, message: 'must be an object' });
      return;
    }
    case 'assets':
      if (typeof sysId(item) !== 'string') errors.push({ path: `${path}.sys.id`, message: 'must be a string' });
      if (item.fields !== undefined && !isPlainObject(item.fields)) errors.push({ path: `${path}.fields`, message: 'must be an object' });
  }
}

/**
 * Checks that `doc` is a Contentful space export and returns it typed. Missing top-level lists
 * count as empty. Throws 400 VALIDATION_FAILED with `file.<path>` details (at most 20). The
 * streaming reader (export-source.ts) applies the same checks item by item.
 */
export function parseExport(doc: unknown): ContentfulExport {
  if (!isPlainObject(doc)) throw invalid('file', 'must be a JSON object (a Contentful space export)');
  const errors: ErrorDetail[] = [];
  for (const list of EXPORT_LISTS) {
    const value = doc[list];
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      errors.push({ path: `file.${list}`, message: 'must be an array' });
      continue;
    }
    value.forEach((item, i) => {
      if (!isPlainObject(item)) errors.push({ path: `file.${list}.${i}`, message: 'must be an object' });
      else checkExportItem(list, item, `file.${list}.${i}`, errors);
    });
  }
  const locales = (doc.locales as CfLocale[] | undefined) ?? [];
  if (locales.length === 0) errors.push({ path: 'file.locales', message: 'must list at least one locale' });
  if (errors.length) throw validationError(errors.slice(0, 20));
  const fieldsOf = <T extends { fields?: unknown }>(x: T) => ({ ...x, fields: x.fields ?? {} });
  return {
    locales,
    contentTypes: (doc.contentTypes as CfContentType[] | undefined) ?? [],
    entries: ((doc.entries as CfEntry[] | undefined) ?? []).map(fieldsOf),
    assets: ((doc.assets as CfAsset[] | undefined) ?? []).map(fieldsOf),
  };
}
