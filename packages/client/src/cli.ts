/// <reference types="node" />
/**
 * The `quire-client` command of this package (its `bin`), for Node.js 20+ in any project:
 *
 *   quire-client typegen --url URL --key KEY --out FILE [--json]
 *   quire-client typegen --graphql --url URL --key KEY [--out FILE | -] [--json]
 *
 * It reads a running server over HTTP (the model through typegen.ts's modelFromApi, the GraphQL
 * schema from the SDL route), never a database, and writes what the server's own `quire typegen`
 * writes from the same model. `--url` and `--key` default to the QUIRE_URL and QUIRE_KEY
 * environment variables, which keeps a key out of shell history. Exit codes as the server's
 * CLI: 0 done, 1 the server refused or a file could not be written, 2 a usage error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isQuireError } from './errors.js';
import { countSdlTypes, graphqlSdlFromApi, modelFromApi, renderTypes, typeSlugs } from './typegen.js';

/** Where the command writes: the process's streams, or a test's. */
export interface ClientCliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
}

const USAGE = `Usage: quire-client typegen --url URL --key KEY --out FILE [--json]
       quire-client typegen --graphql --url URL --key KEY [--out FILE|-] [--json]

Writes TypeScript declarations of a Quire workspace's content model for @quire/client (one
interface per content type and block type, and the type maps that make
client.entries.list('post') return typed data), or with --graphql the workspace's GraphQL schema
in the schema language, read over HTTP from the server at --url.

Options:
  --url URL     the server's base URL (default: $QUIRE_URL)
  --key KEY     an API key (default: $QUIRE_KEY): a delivery key reads the types it may read,
                a management key (svc_mgmt_...) all of them; --graphql needs a delivery key
  --out FILE    the file to write, e.g. src/quire.d.ts (with --graphql, none or - prints the SDL)
  --graphql     write the GraphQL schema (SDL) instead
  --json        print one JSON object
  --help        print this text
`;

class UsageError extends Error {}

interface TypegenArgs {
  url: string;
  key: string;
  out: string | undefined;
  graphql: boolean;
  json: boolean;
}

function parse(argv: string[], env: ClientCliIo['env']): TypegenArgs | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        url: { type: 'string' },
        key: { type: 'string' },
        out: { type: 'string' },
        graphql: { type: 'boolean' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) return 'help';
  if (positionals[0] !== 'typegen' || positionals.length > 1) throw new UsageError(`unknown command '${positionals.join(' ')}' (the command is typegen)`);
  const url = values.url ?? env.QUIRE_URL;
  const key = values.key ?? env.QUIRE_KEY;
  if (!url) throw new UsageError('name the server with --url URL (or QUIRE_URL)');
  if (!key) throw new UsageError('give an API key with --key KEY (or QUIRE_KEY)');
  if (!/^https?:\/\//.test(url)) throw new UsageError(`--url must be an http:// or https:// URL, not '${url}'`);
  if (!values.graphql && !values.out) throw new UsageError('name the file to write with --out FILE');
  return { url, key, out: values.out, graphql: Boolean(values.graphql), json: Boolean(values.json) };
}

/** Writes `text` to `out` (its directory created); returns the absolute path. */
export async function writeTypegenFile(out: string, text: string): Promise<string> {
  const file = path.resolve(out);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, text);
  return file;
}

/** Runs one typegen; returns the JSON object `--json` prints and the summary line. */
async function typegen(args: TypegenArgs): Promise<{ json: Record<string, unknown>; text: string }> {
  if (args.graphql) {
    const sdl = await graphqlSdlFromApi(args.url, args.key);
    const types = countSdlTypes(sdl);
    if (args.out === undefined || args.out === '-') return { json: { out: null, types, sdl }, text: sdl.slice(0, -1) };
    const out = await writeTypegenFile(args.out, sdl);
    return { json: { out, types, bytes: Buffer.byteLength(sdl) }, text: `Wrote ${out}: the GraphQL schema, ${types} type(s).` };
  }
  const types = await modelFromApi(args.url, args.key);
  const out = await writeTypegenFile(args.out!, renderTypes(types, `the content model at ${args.url}`, 'quire-client typegen'));
  const slugs = typeSlugs(types);
  return {
    json: { out, ...slugs },
    text: `Wrote ${out}: ${slugs.content_types.length} content type(s), ${slugs.block_types.length} block type(s).`,
  };
}

/** Runs `quire-client` with `argv` (the arguments after the command's name); resolves to the exit code. */
export async function runClientCli(argv: string[], io: ClientCliIo): Promise<number> {
  let args: TypegenArgs | 'help';
  try {
    args = parse(argv, io.env);
  } catch (err) {
    io.stderr.write(`quire-client: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (args === 'help') {
    io.stdout.write(USAGE);
    return 0;
  }
  try {
    const result = await typegen(args);
    io.stdout.write(`${args.json ? JSON.stringify(result.json) : result.text}\n`);
    return 0;
  } catch (err) {
    if (isQuireError(err)) {
      io.stderr.write(`quire-client: ${args.url} answered ${err.status || 'nothing'}: ${err.message} (${err.code})\n`);
    } else {
      io.stderr.write(`quire-client: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    return 1;
  }
}
