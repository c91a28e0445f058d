// The modules a serving process loads (test/startup-memory.test.ts), in a process of its own:
// vitest's module runner is not Node's. Run with `node --import tsx`, so the sources under test
// run. Argument: a PostgreSQL URL and a schema name (dropped at the end), or none for in-memory
// SQLite. Builds the app, answers /readyz and a delivery request, then uses rich
// text HTML, a field pattern and a preview token. Prints {startup, afterUse}: the packages loaded
// (names under node_modules) before and after that use, as JSON.
import { MessageChannel } from 'node:worker_threads';
import { createRequire, register } from 'node:module';
import os from 'node:os';
import path from 'node:path';

// ES modules are seen by a load hook (it runs on a thread of its own and reports each URL);
// CommonJS modules required by CommonJS ones only reach require.cache.
const seen = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => seen.add(url));
port1.unref();
const hooks = `let port;
export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });

const require = createRequire(import.meta.url);
/** Package names of every module loaded so far; waits until the hook thread reported a sentinel. */
async function loadedPackages() {
  const sentinel = `data:text/javascript,export default ${Math.random()}`;
  await import(sentinel);
  while (!seen.has(sentinel)) await new Promise((r) => setTimeout(r, 5));
  const names = new Set();
  for (const where of [...seen, ...Object.keys(require.cache)]) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(decodeURIComponent(where));
    if (m) names.add(m[1]);
  }
  return [...names].sort();
}

const { loadConfig } = await import('../src/config.js');
const { createDb } = await import('../src/db/create-db.js');
const { createContext } = await import('../src/context.js');
const { buildApp } = await import('../src/app.js');
const { bootstrap } = await import('../src/modules/auth/operations.js');
const { default: pino } = await import('pino');

const [databaseUrl, pgSchema] = process.argv.slice(2);
const config = loadConfig({ DATA_DIR: path.join(os.tmpdir(), 'quire-startup-modules'), DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }, { demo: false });
const db = await createDb(config, databaseUrl ? { pgSchema, poolSize: 2 } : { sqliteFile: ':memory:' });
const ctx = await createContext(config, db, { log: pino({ level: 'silent' }) });
const app = await buildApp(ctx, { logger: false });
await app.ready();
const { keys } = await bootstrap(ctx, { slug: 'mods', name: 'Modules', default_locale: 'en', locales: ['en'] });
const answers = [
  (await app.inject({ method: 'GET', url: '/readyz' })).statusCode,
  (await app.inject({ method: 'GET', url: '/api/v1/public/schema', headers: { 'x-api-key': keys.delivery } })).statusCode,
];
const startup = await loadedPackages();

const { richTextToHtml } = await import('../src/modules/richtext/render.js');
const { compilePattern } = await import('../src/lib/pattern.js');
const { signPreviewToken } = await import('../src/modules/preview/tokens.js');
const html = richTextToHtml({
  nodeType: 'document',
  data: {},
  content: [{ nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: 'a', marks: [], data: {} }] }],
});
const pattern = compilePattern('^a+$');
const token = await signPreviewToken(
  ctx.secret,
  { kind: 'entry', id: '00000000-0000-4000-8000-000000000000', workspaceId: '00000000-0000-4000-8000-000000000000' },
  new Date(),
);
const used = { html, pattern: 'test' in pattern && pattern.test('aaa'), token: typeof token.token === 'string' };
const afterUse = await loadedPackages();

await app.close();
if (pgSchema) await db.kysely.schema.dropSchema(pgSchema).ifExists().cascade().execute();
await db.close();
process.stdout.write(JSON.stringify({ answers, used, startup, afterUse }));
