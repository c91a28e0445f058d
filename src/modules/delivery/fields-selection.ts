/**
 * The `fields` query parameter (docs/api.md "Field selection, sorting and filters", "Fields" (D33),
 * "The `fields` parameter" (D41)):
 * a comma-separated list of names to include in `data`.
 *
 * - `<name>`: a field of the content type.
 * - `<rich>_html` / `<rich>_text`: for a rich_text field, its sanitized HTML / plain text under
 *   that key (a real field of that exact name wins).
 * - `<relation>.<name>`: one level into a relation or relation_list field; the related objects
 *   keep `id`, `slug`, `type` and the named fields (D41). `<name>` may itself be `<rich>_html` or
 *   `<rich>_text` of the related type. Deeper paths (`author.profile.bio`) answer 400.
 * Unknown names answer 400 at `query.fields`. Without `fields`, every field is returned and
 * relation and media fields are resolved.
 */
import { invalid } from '../../errors.js';
import { fieldOptions, type Field } from '../content-types/model.js';
import type { DeliverySchema, DeliveryType } from './model.js';

export type ValueKind = 'value' | 'html' | 'text';

/** One key of a related entry's data: a plain field value or a rendering of a rich_text field. */
export interface SubKey {
  key: string;
  /** The source field name (for html/text, the rich_text field). */
  source: string;
  kind: ValueKind;
}

export type ProjectedField =
  | { key: string; kind: ValueKind; field: Field }
  | { key: string; kind: 'relation' | 'relation_list'; field: Field; sub: string[] | null }
  | { key: string; kind: 'media' | 'media_list'; field: Field };

/** The ordered keys of `data` and how each is produced. */
export interface Projection {
  fields: ProjectedField[];
}

const MAX_NAMES = 200;
const RENDER_SUFFIX = /^(.+)_(html|text)$/;

function kindOf(field: Field): ProjectedField['kind'] {
  switch (field.field_type) {
    case 'relation':
    case 'relation_list':
    case 'media':
    case 'media_list':
      return field.field_type;
    default:
      return 'value';
  }
}

function project(field: Field, sub: string[] | null = null): ProjectedField {
  const kind = kindOf(field);
  if (kind === 'relation' || kind === 'relation_list') return { key: field.name, kind, field, sub };
  return { key: field.name, kind, field } as ProjectedField;
}

/** The key `name` of an entry of `type`: a field, or `<rich>_html` / `<rich>_text`; null if neither. */
export function subKeyFor(type: DeliveryType, name: string): SubKey | null {
  if (type.fieldsByName.has(name)) return { key: name, source: name, kind: 'value' };
  const m = RENDER_SUFFIX.exec(name);
  if (m && type.fieldsByName.get(m[1])?.field_type === 'rich_text') return { key: name, source: m[1], kind: m[2] as 'html' | 'text' };
  return null;
}

/** Content types a relation field may point to: its `options` slugs, or every entry type. */
export function relationTargets(schema: DeliverySchema, field: Field): DeliveryType[] {
  const slugs = fieldOptions(field);
  const all = schema.types.filter((t) => !t.is_block);
  return slugs.length ? all.filter((t) => slugs.includes(t.slug)) : all;
}

/** Every field of `type`, relations and media resolved (no `fields` parameter). */
export function fullProjection(type: DeliveryType): Projection {
  return { fields: type.fields.map((f) => project(f)) };
}

/** Parses `fields` for entries of `type`; throws 400 VALIDATION_FAILED naming the bad name. */
export function parseFieldSelection(schema: DeliverySchema, type: DeliveryType, raw: string | undefined): Projection {
  if (raw === undefined) return fullProjection(type);
  const names = raw.split(',').map((n) => n.trim());
  if (names.length > MAX_NAMES) throw invalid('query.fields', `may list at most ${MAX_NAMES} names`);
  const out = new Map<string, ProjectedField>();
  for (const name of names) {
    if (!name) throw invalid('query.fields', 'must be a comma-separated list of field names without empty items');
    const parts = name.split('.');
    if (parts.length > 2) throw invalid('query.fields', `'${name}': dot notation goes one level deep (relation.field)`);
    if (parts.length === 2) {
      const [base, subName] = parts;
      const field = type.fieldsByName.get(base);
      if (!field || (field.field_type !== 'relation' && field.field_type !== 'relation_list')) {
        throw invalid('query.fields', `'${name}': '${base}' is not a relation field of content type '${type.slug}'`);
      }
      if (!subName || !relationTargets(schema, field).some((t) => subKeyFor(t, subName))) {
        throw invalid('query.fields', `'${name}': '${subName}' is not a field of the content types '${base}' points to`);
      }
      const existing = out.get(base);
      if (!existing) out.set(base, project(field, [subName]));
      else if ('sub' in existing && existing.sub && !existing.sub.includes(subName)) existing.sub.push(subName);
      continue;
    }
    const field = type.fieldsByName.get(name);
    if (field) {
      // The whole relation wins over any dotted selection of it.
      out.set(name, project(field));
      continue;
    }
    const m = RENDER_SUFFIX.exec(name);
    const rich = m ? type.fieldsByName.get(m[1]) : undefined;
    if (m && rich?.field_type === 'rich_text') {
      out.set(name, { key: name, kind: m[2] as 'html' | 'text', field: rich });
      continue;
    }
    throw invalid('query.fields', `'${name}' is not a field of content type '${type.slug}'`);
  }
  return { fields: [...out.values()] };
}
