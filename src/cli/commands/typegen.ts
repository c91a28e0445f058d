/**
 * `quire typegen --out FILE (--workspace SLUG | --url URL --key KEY) [--json]`: writes TypeScript
 * declarations of a workspace's content model for the client (packages/client): one interface
 * per content type and per block type, in two shapes, plus the augmentation of the client's type
 * maps so `client.entries.list('post')` returns `Post` data.
 *
 * - `<Name>Fields`: values as stored and written (management API): relations and media as ids.
 * - `<Name>`: values as delivered: relations resolved one level deep to `Related<'<type>'>`
 *   (`{id, slug, type, ...fields}` with the related entry's own references left as ids) or null,
 *   media to the delivery media object or null (docs/api.md "The `fields` parameter").
 * Required fields are required properties; every other field is optional (an empty field is
 * left out of `data`). Field types map as docs/api.md "Fields" lists them (D30).
 *
 * The model comes from the database of the environment (`--workspace`, like every other command),
 * or over HTTP from a running server (`--url` and `--key`): a delivery key reads GET /schema
 * (only the types it may read), a management key GET /content-types.
 *
 * `--graphql` writes the workspace's GraphQL schema in the schema language instead (docs/cli.md,
 * docs/graphql.md "Schema as SDL"; D104): from the database through printWorkspaceSchema, the
 * function `GET /api/v1/public/graphql/schema.graphql` answers with, or from that route with
 * `--url` and a delivery key, so both give the same text. Without `--out` (or with `--out -`) the
 * SDL goes to stdout.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';
import { requireWorkspace } from '../../modules/auth/operations.js';
import { listAllContentTypes } from '../../modules/content-types/repository.js';
import { printWorkspaceSchema } from '../../modules/graphql/schema.js';
import { createClient } from '../../../packages/client/src/index.js';
import type { CommandResult } from '../io.js';

/** One field of the model, whatever its source. */
export interface ModelField {
  name: string;
  type: string;
  required: boolean;
  /** Choices of a select, target type slugs of a relation. */
  options: string[];
}

export interface ModelType {
  slug: string;
  name: string;
  is_block: boolean;
  fields: ModelField[];
}

/** `options` of a stored field: a JSON-encoded array of strings (D30), or nothing. */
function optionList(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value !== 'string' || !value) return [];
  try {
    return optionList(JSON.parse(value));
  } catch {
    return [];
  }
}

/** The content model of a workspace in the database. */
export async function modelFromDatabase(ctx: Context, workspace: string): Promise<ModelType[]> {
  const ws = await requireWorkspace(ctx, workspace);
  const types = await listAllContentTypes(ctx.db, ws.id);
  return types.map((ct) => ({
    slug: ct.slug,
    name: ct.name,
    is_block: ct.is_block,
    fields: ct.fields.map((f) => ({ name: f.name, type: f.field_type, required: f.required, options: optionList(f.options) })),
  }));
}

/** The content model as a running server shows it to `key` (delivery: GET /schema; management: GET /content-types). */
export async function modelFromApi(url: string, key: string): Promise<ModelType[]> {
  const client = createClient({ url, apiKey: key });
  if (key.startsWith('svc_mgmt_')) {
    const out: ModelType[] = [];
    for await (const ct of client.manage.contentTypes.iterate({ limit: 100 })) {
      out.push({
        slug: ct.slug,
        name: ct.name,
        is_block: ct.is_block,
        fields: ct.fields.map((f) => ({ name: f.name, type: f.field_type, required: f.required, options: optionList(f.options) })),
      });
    }
    return out;
  }
  const schema = await client.schema();
  return schema.content_types.map((ct) => ({
    slug: ct.slug,
    name: ct.name,
    is_block: ct.is_block,
    fields: ct.fields.map((f) => ({ name: f.name, type: f.type, required: f.required, options: optionList(f.options) })),
  }));
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

/** The declarations file for `types` (stable: sorted by slug, no timestamps). */
export function renderTypes(types: readonly ModelType[], source: string): string {
  const sorted = [...types].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  const names = interfaceNames(sorted);
  const entryTypes = sorted.filter((t) => !t.is_block).map((t) => t.slug);
  const parts: string[] = [
    `// Generated by \`quire typegen\` from ${source}. Do not edit: run it again after changing the content model.\n`,
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
      .map((t) => `    ${quote(t.slug)}: { fields: ${names.get(t.slug)}Fields; delivered: ${names.get(t.slug)} };`)
      .join('\n');
  parts.push(
    `declare module '@quire/client' {\n  interface ContentTypeMap {\n${mapLines(false)}\n  }\n  interface BlockTypeMap {\n${mapLines(true)}\n  }\n}\n`,
  );
  return parts.join('\n').replace(/\{\n\n {2}\}/g, '{}');
}

export interface TypegenOptions {
  /** The file to write; with `graphql`, undefined or `-` prints to stdout. */
  out?: string;
  graphql?: boolean;
  workspace?: string;
  url?: string;
  key?: string;
}

/** The source of a typegen run: a server (`url` and `key`) or a workspace of the database. */
function source(ctx: Context | null, opts: TypegenOptions): { api: { url: string; key: string } } | { ctx: Context; workspace: string } {
  if (opts.url || opts.key) {
    if (!opts.url || !opts.key) throw new AppError('VALIDATION_FAILED', '--url and --key go together');
    return { api: { url: opts.url, key: opts.key } };
  }
  if (!opts.workspace || !ctx) throw new AppError('VALIDATION_FAILED', 'name the workspace with --workspace SLUG (or read a server with --url and --key)');
  return { ctx, workspace: opts.workspace };
}

/** Writes `text` to `out` (its directory created); returns the absolute path. */
async function writeOut(out: string, text: string): Promise<string> {
  const file = path.resolve(out);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return file;
}

/** `quire typegen --graphql`: the SDL of the workspace, to `out` or (as the result's text) stdout. */
async function runGraphqlTypegen(ctx: Context | null, opts: TypegenOptions): Promise<CommandResult> {
  const from = source(ctx, opts);
  let sdl: string;
  if ('api' in from) sdl = await createClient({ url: from.api.url, apiKey: from.api.key }).graphqlSchema();
  else sdl = await printWorkspaceSchema(from.ctx, (await requireWorkspace(from.ctx, from.workspace)).id);
  sdl = sdl.endsWith('\n') ? sdl : `${sdl}\n`;
  const types = (sdl.match(/^(type|interface|input|enum|scalar|union) /gm) ?? []).length;
  if (opts.out === undefined || opts.out === '-') return { json: { out: null, types, sdl }, text: sdl.slice(0, -1) };
  const out = await writeOut(opts.out, sdl);
  return { json: { out, types, bytes: Buffer.byteLength(sdl) }, text: `Wrote ${out}: the GraphQL schema, ${types} type(s).` };
}

/** Runs `quire typegen`: reads the model, writes `out`, reports what it wrote. */
export async function runTypegen(ctx: Context | null, opts: TypegenOptions): Promise<CommandResult> {
  if (opts.graphql) return runGraphqlTypegen(ctx, opts);
  if (!opts.out) throw new AppError('VALIDATION_FAILED', 'name the file to write with --out FILE');
  const from = source(ctx, opts);
  let types: ModelType[];
  let label: string;
  if ('api' in from) {
    types = await modelFromApi(from.api.url, from.api.key);
    label = `the content model at ${from.api.url}`;
  } else {
    types = await modelFromDatabase(from.ctx, from.workspace);
    label = `workspace '${from.workspace}'`;
  }
  const out = await writeOut(opts.out, renderTypes(types, label));
  const contentTypes = types.filter((t) => !t.is_block).map((t) => t.slug);
  const blockTypes = types.filter((t) => t.is_block).map((t) => t.slug);
  return {
    json: { out, content_types: contentTypes, block_types: blockTypes },
    text: `Wrote ${out}: ${contentTypes.length} content type(s), ${blockTypes.length} block type(s).`,
  };
}
