/**
 * Contentful field validations → Quire field rules (issue 12 item 2; docs/api.md "Fields" (D30)). A rule
 * Quire has is carried over; every other one is named in a warning, so nothing vanishes silently.
 *
 * | Contentful validation | Quire |
 * |---|---|
 * | `regexp` `{pattern, flags}` on Symbol / Text | `validation.pattern` (flags `i`, `m`, `s` as an inline group `(?ims)`); a pattern RE2 cannot run is a warning |
 * | `size` `{min, max}` on Symbol / Text / RichText | `min_length` / `max_length` (characters; plain text for rich text) |
 * | `size` on an Array | `min` / `max` (item count) |
 * | `range` `{min, max}` on Integer / Number | `min` / `max` |
 * | `in` on Symbol / Array of Symbol | a `select` / `multi_select` with those options (schema-mapping.ts) |
 * | `linkContentType` | relation targets (`options`, schema-mapping.ts) |
 * | `unique` | `is_unique` where the type can be unique |
 * | `linkMimetypeGroup` on Link to Asset / Array of Link to Asset | `media_kinds`: `image` → `image`, `video` → `video`, `pdfdocument` → `pdf`; `attachment`, `plaintext`, `audio`, `richtext`, `presentation`, `spreadsheet`, `archive`, `code`, `markup` have no Quire kind of their own and become `other` (any file that is not an image, video or PDF: wider, so every asset Contentful accepted stays valid), with a warning; a group Quire does not know drops the rule, with a warning |
 * | anything else (`dateRange`, `prohibitRegexp`, `assetFileSize`, `assetImageDimensions`, `in` on numbers, rich-text `enabledMarks` / `enabledNodeTypes` / `nodes`, `size` of list items, …) | not imported, with a warning |
 */
import { compilePattern } from '../../../lib/pattern.js';
import type { FieldType, FieldValidation } from '../../content-types/model.js';
import { ASSET_KINDS, type AssetKind } from '../../media/kinds.js';
import type { CfField, CfValidation } from './export.js';

const LENGTH_TYPES = new Set<FieldType>(['text', 'textarea', 'rich_text']);
const PATTERN_TYPES = new Set<FieldType>(['text', 'textarea']);
const COUNT_TYPES = new Set<FieldType>(['multi_select', 'tags', 'relation_list', 'media_list']);
const NUMBER_TYPES = new Set<FieldType>(['integer', 'number']);
const MEDIA_TYPES = new Set<FieldType>(['media', 'media_list']);

/**
 * Contentful's mimetype groups (`linkMimetypeGroup`) by the Quire kind holding their files. Only
 * image, video and pdfdocument have a kind of their own; the others are all `other`.
 */
const GROUP_KINDS: Readonly<Record<string, AssetKind>> = {
  image: 'image',
  video: 'video',
  pdfdocument: 'pdf',
  attachment: 'other',
  plaintext: 'other',
  audio: 'other',
  richtext: 'other',
  presentation: 'other',
  spreadsheet: 'other',
  archive: 'other',
  code: 'other',
  markup: 'other',
};

/**
 * The `media_kinds` of a `linkMimetypeGroup` value (one group or a list), in ASSET_KINDS order,
 * with the groups that became `other`; null when a group is unknown (or the value no group list).
 */
function kindsOfGroups(value: unknown): { kinds: AssetKind[]; widened: string[] } | null {
  const groups = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(groups) || groups.length === 0) return null;
  const kinds = new Set<AssetKind>();
  const widened: string[] = [];
  for (const g of groups) {
    const kind = typeof g === 'string' && Object.hasOwn(GROUP_KINDS, g) ? GROUP_KINDS[g] : undefined;
    if (!kind) return null;
    kinds.add(kind);
    if (kind === 'other') widened.push(g as string);
  }
  return { kinds: ASSET_KINDS.filter((k) => kinds.has(k)), widened };
}
/** Keys of a validation that are no rule of their own. */
const NOT_RULES = new Set(['message']);

function bounds(value: unknown): { min?: number; max?: number } | null {
  if (typeof value !== 'object' || value === null) return null;
  const { min, max } = value as Record<string, unknown>;
  const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
  const out = { ...(num(min) !== undefined ? { min: num(min) } : {}), ...(num(max) !== undefined ? { max: num(max) } : {}) };
  return Object.keys(out).length ? out : null;
}

/** `regexp` as a Quire pattern, or null when RE2 cannot run it (or a flag has no inline form). */
function patternOf(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const { pattern, flags } = value as Record<string, unknown>;
  if (typeof pattern !== 'string' || !pattern || pattern.length > 480) return null;
  const f = typeof flags === 'string' ? [...new Set(flags.replace(/[gu]/g, ''))].join('') : '';
  if (/[^ims]/.test(f)) return null;
  const source = f ? `(?${f})${pattern}` : pattern;
  return 'error' in compilePattern(source) ? null : source;
}

function describe(key: string, value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return `'${key}' ${text.length > 120 ? `${text.slice(0, 117)}…` : text}`;
}

/** True when a validation key says nothing (rich-text `nodes: {}`). */
function isEmptyRule(key: string, value: unknown): boolean {
  return key === 'nodes' && typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/**
 * The Quire `validation` of a Contentful field that became `type` (null when none), pushing one
 * warning per Contentful validation that has no Quire rule. `where` names the field in warnings.
 * Rules already carried by the type or options (`in`, `linkContentType`, `unique`) are not
 * repeated here; `uniqueMapped` says whether `unique` found a Quire equivalent.
 */
export function mapValidations(field: CfField, type: FieldType, where: string, uniqueMapped: boolean, warnings: string[]): FieldValidation | null {
  const out: FieldValidation = {};
  const drop = (key: string, value: unknown, what = 'has no Quire rule') =>
    warnings.push(`${where}: validation ${describe(key, value)} ${what} and is not imported`);
  const visit = (v: CfValidation, level: 'field' | 'items') => {
    for (const [key, value] of Object.entries(v)) {
      if (NOT_RULES.has(key) || isEmptyRule(key, value)) continue;
      if (key === 'linkContentType' && (type === 'relation' || type === 'relation_list')) continue;
      if (key === 'in' && (type === 'select' || type === 'multi_select')) continue;
      if (key === 'unique' && (uniqueMapped || value !== true)) continue;
      if (key === 'linkMimetypeGroup' && MEDIA_TYPES.has(type)) {
        const mapped = kindsOfGroups(value);
        if (!mapped) {
          drop(key, value, 'names a mimetype group Quire does not know');
          continue;
        }
        out.media_kinds = mapped.kinds;
        if (mapped.widened.length)
          warnings.push(
            `${where}: validation ${describe(key, value)}: ${mapped.widened.map((g) => `'${g}'`).join(', ')} ${mapped.widened.length === 1 ? 'has' : 'have'} no Quire kind of ${mapped.widened.length === 1 ? 'its' : 'their'} own and ${mapped.widened.length === 1 ? 'becomes' : 'become'} media kind 'other' (any file that is not an image, video or PDF)`,
          );
        continue;
      }
      if (key === 'regexp' && level === 'field' && PATTERN_TYPES.has(type)) {
        const pattern = patternOf(value);
        if (pattern) out.pattern = pattern;
        else drop(key, value, 'is no pattern Quire can run (RE2 syntax, flags i, m, s)');
        continue;
      }
      const b = key === 'size' || key === 'range' ? bounds(value) : null;
      if (b && key === 'size' && level === 'field' && LENGTH_TYPES.has(type)) {
        if (b.min !== undefined) out.min_length = Math.max(0, Math.ceil(b.min));
        if (b.max !== undefined) out.max_length = Math.max(0, Math.floor(b.max));
        continue;
      }
      if (b && key === 'size' && level === 'field' && COUNT_TYPES.has(type)) {
        if (b.min !== undefined) out.min = b.min;
        if (b.max !== undefined) out.max = b.max;
        continue;
      }
      if (b && key === 'range' && NUMBER_TYPES.has(type)) {
        if (b.min !== undefined) out.min = b.min;
        if (b.max !== undefined) out.max = b.max;
        continue;
      }
      drop(level === 'items' ? `items.${key}` : key, value);
    }
  };
  for (const v of field.validations ?? []) visit(v, 'field');
  if (field.type === 'Array') for (const v of field.items?.validations ?? []) visit(v, 'items');
  return Object.keys(out).length ? out : null;
}
