/**
 * `quire typegen --out FILE (--workspace SLUG | --url URL --key KEY) [--json]`: writes TypeScript
 * declarations of a workspace's content model for the client (packages/client). The generator is
 * the client's own (packages/client/src/typegen.ts: the shapes, the field type mapping, the type
 * map augmentation), the one its `quire-client typegen` command runs in any project; this command
 * adds the database as a source.
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
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';
import { requireWorkspace } from '../../modules/auth/operations.js';
import { listAllContentTypes } from '../../modules/content-types/repository.js';
import { printWorkspaceSchema } from '../../modules/graphql/schema.js';
import { writeTypegenFile } from '../../../packages/client/src/cli.js';
import { countSdlTypes, graphqlSdlFromApi, modelFromApi, modelTypeOf, renderTypes, typeSlugs, type ModelType } from '../../../packages/client/src/typegen.js';
import type { CommandResult } from '../io.js';

export type { ModelField, ModelType } from '../../../packages/client/src/typegen.js';

/** The content model of a workspace in the database, in the shape the client's typegen renders. */
export async function modelFromDatabase(ctx: Context, workspace: string): Promise<ModelType[]> {
  const ws = await requireWorkspace(ctx, workspace);
  const types = await listAllContentTypes(ctx.db, ws.id);
  return types.map(modelTypeOf);
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

/** `quire typegen --graphql`: the SDL of the workspace, to `out` or (as the result's text) stdout. */
async function runGraphqlTypegen(ctx: Context | null, opts: TypegenOptions): Promise<CommandResult> {
  const from = source(ctx, opts);
  let sdl: string;
  if ('api' in from) sdl = await graphqlSdlFromApi(from.api.url, from.api.key);
  else sdl = await printWorkspaceSchema(from.ctx, (await requireWorkspace(from.ctx, from.workspace)).id);
  sdl = sdl.endsWith('\n') ? sdl : `${sdl}\n`;
  const types = countSdlTypes(sdl);
  if (opts.out === undefined || opts.out === '-') return { json: { out: null, types, sdl }, text: sdl.slice(0, -1) };
  const out = await writeTypegenFile(opts.out, sdl);
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
  const out = await writeTypegenFile(opts.out, renderTypes(types, label));
  const slugs = typeSlugs(types);
  return {
    json: { out, ...slugs },
    text: `Wrote ${out}: ${slugs.content_types.length} content type(s), ${slugs.block_types.length} block type(s).`,
  };
}
