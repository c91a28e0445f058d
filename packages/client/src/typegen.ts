/**
 * Typegen: TypeScript declarations of a workspace's content model for this client, one
 * implementation for the client's `quire-client typegen` command and the server's `quire typegen`
 * (which reads the same model from its database). No Node.js built-ins: it runs wherever the
 * client does; writing files is the commands' part.
 *
 * Two shapes per content type and per block type, plus the augmentation of the client's type maps
 * so `client.entries.list('post')` returns `Post` data:
 * - `<Name>Fields`: values as stored and written (management API): relations and media as ids.
 * - `<Name>`: values as delivered: relations resolved one level deep to `Related<'<type>'>`
 *   (`{id, slug, type, ...fields}` with the related entry's own references left as ids) or null,
 *   media to the delivery media object or null (the API guide, "The `fields` parameter").
 * Required fields are required properties; every other field is optional (an empty field is left
 * out of `data`). Field types map as the API guide's "Fields" section lists them (D30).
 * Each content type's map entry also lists its `filterable` fields with their field types and its
 * `sortable` keys, which type `filter` and `sort` of delivery lists (src/query.ts); a source that
 * does not report the flags (a server from before they were in GET /schema) lists every field
 * that could carry them, and `position` whatever the type's order.
 */
import { createClient } from './index.js';

/** One field of the model, whatever its source. */
export interface ModelField {
  name: string;
  type: string;
  required: boolean;
  /** Choices of a select, target type slugs of a relation. */
  options: string[];
  /** Marked filterable / sortable; undefined when the source does not say (an older server's schema). */
  filterable?: boolean;
  sortable?: boolean;
}

/** One content type or block type of the model. */
export interface ModelType {
  slug: string;
  name: string;
  is_block: boolean;
  /** Entries in a manual order (`position` sorts); undefined when the source does not say. */
  orderable?: boolean;
  fields: ModelField[];
}

/** `options` of a stored field: a JSON-encoded array of strings (D30), an array, or nothing. */
export function optionList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value !== 'string' || !value) return [];
  try {
    return optionList(JSON.parse(value));
  } catch {
    return [];
  }
}

/** A content type as the management API (or the server's database) holds it. */
export interface StoredContentType {
  slug: string;
  name: string;
  is_block: boolean;
  orderable: boolean;
  fields: readonly { name: string; field_type: string; required: boolean; options: unknown; filterable: boolean; sortable: boolean }[];
}

/** One content type of the model from its stored form (management API, or the server's database). */
export function modelTypeOf(ct: StoredContentType): ModelType {
  return {
    slug: ct.slug,
    name: ct.name,
    is_block: ct.is_block,
    orderable: ct.orderable,
    fields: ct.fields.map((f) => ({
      name: f.name,
      type: f.field_type,
      required: f.required,
      options: optionList(f.options),
      filterable: f.filterable,
      sortable: f.sortable,
    })),
  };
}

/**
 * The content model as the server at `url` shows it to `key`: a management key (`svc_mgmt_…`)
 * reads every type (GET /api/v1/manage/content-types), any other key the types it may read
 * (GET /api/v1/public/schema). Rejects with the client's QuireError when the server refuses.
 */
export async function modelFromApi(url: string, key: string): Promise<ModelType[]> {
  const client = createClient({ url, apiKey: key });
  if (key.startsWith('svc_mgmt_')) {
    const out: ModelType[] = [];
    for await (const ct of client.manage.contentTypes.iterate({ limit: 100 })) out.push(modelTypeOf(ct));
    return out;
  }
  const schema = await client.schema();
  // The flags came to GET /schema later: a server without them leaves them undefined.
  return schema.content_types.map((ct) => {
    const flags = ct as { orderable?: boolean };
    return {
      slug: ct.slug,
      name: ct.name,
      is_block: ct.is_block,
      orderable: flags.orderable,
      fields: ct.fields.map((f) => {
        const field = f as { filterable?: boolean; sortable?: boolean };
        return { name: f.name, type: f.type, required: f.required, options: optionList(f.options), filterable: field.filterable, sortable: field.sortable };
      }),
    };
  });
}

/**
 * The workspace's GraphQL schema in the schema language, as the server at `url` publishes it
 * (GET /api/v1/public/graphql/schema.graphql, a delivery key), ending with one newline.
 */
export async function graphqlSdlFromApi(url: string, key: string): Promise<string> {
  const sdl = await createClient({ url, apiKey: key }).graphqlSchema();
  return sdl.endsWith('\n') ? sdl : `${sdl}\n`;
}

/** How many named types an SDL text declares (`type`, `interface`, `input`, `enum`, `scalar`, `union`). */
export function countSdlTypes(sdl: string): number {
  return (sdl.match(/^(type|interface|input|enum|scalar|union) /gm) ?? []).length;
}

/** `blog-post` → `BlogPost`; a name that does not start with a letter gets a `T` in front. */
function pascal(slug: string): string {
  const name = slug
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0].toUpperCase() + p.slice(1))
    .join('');
  return /^[A-Za-z]/.test(name) ? name : `T${name}`;
}

/** Interface names per slug: PascalCase, `Block` appended to block types, made unique. */
function interfaceNames(types: readonly ModelType[]): Map<string, string> {
  const taken = new Set(['Q']);
  const out = new Map<string, string>();
  for (const t of types) {
    let base = pascal(t.slug);
    if (t.is_block && !base.endsWith('Block')) base += 'Block';
    let name = base;
    for (let i = 2; taken.has(name) || taken.has(`${name}Fields`); i++) name = `${base}${i}`;
    taken.add(name);
    taken.add(`${name}Fields`);
    out.set(t.slug, name);
  }
  return out;
}

const quote = (s: string) => JSON.stringify(s);

/** The TypeScript type of one field, stored (`delivered` false) or delivered. */
function fieldType(field: ModelField, delivered: boolean, entryTypes: readonly string[]): string {
  const choices = field.options.length ? field.options.map(quote).join(' | ') : 'string';
  const related = () => {
    const targets = field.options.length ? field.options : entryTypes;
    return targets.length ? targets.map((t) => `Q.Related<${quote(t)}>`).join(' | ') : 'Q.Related<string>';
  };
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'url':
    case 'date':
    case 'datetime':
      return 'string';
    case 'rich_text':
      return 'Q.RichTextDocument';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'select':
      return choices;
    case 'multi_select':
      return field.options.length ? `(${choices})[]` : 'string[]';
    case 'tags':
      return 'string[]';
    case 'json':
      return 'unknown';
    case 'media':
      return delivered ? 'Q.DeliveryMedia | null' : 'string';
    case 'media_list':
      return delivered ? 'Q.DeliveryMedia[]' : 'string[]';
    case 'relation':
      return delivered ? `${related()} | null` : 'string';
    case 'relation_list':
      return delivered ? `(${related()})[]` : 'string[]';
    default:
      return 'unknown';
  }
}

function interfaceText(name: string, doc: string, fields: readonly ModelField[], delivered: boolean, entryTypes: readonly string[]): string {
  const lines = fields.map((f) => `  ${f.name}${f.required ? '' : '?'}: ${fieldType(f, delivered, entryTypes)};`);
  return `/** ${doc} */\nexport interface ${name} {\n${lines.join('\n')}${lines.length ? '\n' : ''}}\n`;
}

/** Field types that may be marked filterable or sortable (docs/api.md "Fields"). */
const FLAG_TYPES = new Set(['text', 'number', 'integer', 'boolean', 'date', 'datetime', 'email', 'url', 'select', 'relation', 'media']);

/** Whether a field is marked `flag`; a source that does not say counts every field that could be. */
function flagged(field: ModelField, flag: 'filterable' | 'sortable'): boolean {
  return FLAG_TYPES.has(field.type) && (field[flag] ?? true);
}

/**
 * A content type's entry in ContentTypeMap: its two shapes, its filterable fields with their
 * field types (the operators a filter may use follow from them) and its sort keys besides the
 * system ones (`position` on orderable types).
 */
function contentTypeEntry(t: ModelType, name: string): string {
  const filterable = t.fields.filter((f) => flagged(f, 'filterable')).map((f) => `${f.name}: ${quote(f.type)}`);
  const sortable = [...((t.orderable ?? true) ? ['position'] : []), ...t.fields.filter((f) => flagged(f, 'sortable')).map((f) => f.name)];
  return [
    `    ${quote(t.slug)}: {`,
    `      fields: ${name}Fields;`,
    `      delivered: ${name};`,
    `      filterable: ${filterable.length ? `{ ${filterable.join('; ')} }` : 'Record<never, never>'};`,
    `      sortable: ${sortable.length ? sortable.map(quote).join(' | ') : 'never'};`,
    `    };`,
  ].join('\n');
}

/**
 * The declarations file for `types` (stable: sorted by slug, no timestamps). `source` names where
 * the model came from and `command` what wrote it, both for the file's first line only.
 */
export function renderTypes(types: readonly ModelType[], source: string, command = 'quire typegen'): string {
  const sorted = [...types].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const names = interfaceNames(sorted);
  const entryTypes = sorted.filter((t) => !t.is_block).map((t) => t.slug);
  const parts: string[] = [
    `// Generated by \`${command}\` from ${source}. Do not edit: run it again after changing the content model.\n`,
    `import type * as Q from '@quire/client';\n`,
  ];
  for (const t of sorted) {
    const name = names.get(t.slug)!;
    const kind = t.is_block ? 'block type' : 'content type';
    parts.push(
      interfaceText(
        `${name}Fields`,
        `${t.name} (${kind} \`${t.slug}\`): values as stored and written; relations and media as ids.`,
        t.fields,
        false,
        entryTypes,
      ),
    );
    parts.push(interfaceText(name, `${t.name} (${kind} \`${t.slug}\`) as delivered: relations and media resolved one level deep.`, t.fields, true, entryTypes));
  }
  const mapLines = (block: boolean) =>
    sorted
      .filter((t) => t.is_block === block)
      .map((t) =>
        block ? `    ${quote(t.slug)}: { fields: ${names.get(t.slug)}Fields; delivered: ${names.get(t.slug)} };` : contentTypeEntry(t, names.get(t.slug)!),
      )
      .join('\n');
  parts.push(
    `declare module '@quire/client' {\n  interface ContentTypeMap {\n${mapLines(false)}\n  }\n  interface BlockTypeMap {\n${mapLines(true)}\n  }\n}\n`,
  );
  return parts.join('\n').replace(/\{\n\n {2}\}/g, '{}');
}

/** The slugs of the content types and of the block types in `types`, as the commands report them. */
export function typeSlugs(types: readonly ModelType[]): { content_types: string[]; block_types: string[] } {
  return { content_types: types.filter((t) => !t.is_block).map((t) => t.slug), block_types: types.filter((t) => t.is_block).map((t) => t.slug) };
}
