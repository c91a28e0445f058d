/**
 * Documentation checks (issue 2 item 12; STYLE.md "a test checks every code is documented").
 * No database server is needed: routes come from an app built on in-memory SQLite.
 *
 * - Every code of ERROR_CODES has a row in the "Errors" table of docs/api.md with its status, and
 *   the table names no code that does not exist.
 * - Every management and delivery route (collected from Fastify's printRoutes tree, cross-checked
 *   against the OpenAPI document) is mentioned with its method and path in docs/api.md,
 *   docs/pages.md or docs/media.md; the endpoint index of docs/api.md lists exactly the routes.
 * - README.md opens with its title, a one-line description and the two commands
 *   `npm install && npm start` / `npm test` in one code block.
 * - Relative links of README.md and docs/*.md point at files that exist, and their `#anchors` at
 *   headings that exist.
 * - The docs stand on their own in a fresh clone: no file of the repository points at the
 *   specification's rule list or folder beside it, and every comment citing a section of our docs
 *   (`docs/api.md "History" (D72)`) names a heading or bold paragraph name that exists there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.js';
import { createTestEnv, type TestEnv } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const API_PREFIXES = ['/api/v1/manage', '/api/v1/public'] as const;
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

interface Route {
  method: string;
  /** Fastify form, e.g. `/api/v1/manage/content-types/:slug`. */
  url: string;
}

const key = (r: Route) => `${r.method} ${r.url}`;

/**
 * Parses `app.printRoutes({ commonPrefix: false })`: one node per line, indented by four
 * characters per level, each holding its path segment and, when it has handlers, `(METHODS)`.
 */
function parsePrintedRoutes(tree: string): Route[] {
  const out: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    const url = (depth > 0 ? stack[depth - 1] : '') + m[2];
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean))
      out.push({ method, url });
  }
  return out;
}

/** The routes of the two APIs, without the HEAD twins Fastify adds to every GET. */
function apiRoutes(env: TestEnv): Route[] {
  return parsePrintedRoutes(env.app.printRoutes({ commonPrefix: false })).filter(
    (r) => r.method !== 'HEAD' && API_PREFIXES.some((p) => r.url.startsWith(`${p}/`)),
  );
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A regex matching `path` as written in the docs (`:param` as `{anything}`), as a whole path. */
function pathPattern(p: string): RegExp {
  const body = p
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '\\{[A-Za-z_][A-Za-z0-9_]*\\}' : escapeRe(seg)))
    .join('/');
  return new RegExp(`(?<![\\w/{}:.-])${body}(?![\\w/{}-])`);
}

/** True when some line of `text` names `method` (as a word) and matches one of `patterns`. */
function mentions(text: string, method: string, patterns: RegExp[]): boolean {
  const word = new RegExp(`\\b${method}\\b`);
  return text.split('\n').some((line) => word.test(line) && patterns.some((p) => p.test(line)));
}

/** The part of a markdown document from the `## title` heading to the next `## ` heading. */
function section(markdown: string, title: string): string {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start < 0) return '';
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** Cells of the table rows of `markdown` (lines starting with `|`), trimmed. */
function tableRows(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((l) => l.trimStart().startsWith('|'))
    .map((l) =>
      l
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    );
}

/** GitHub's anchors of the headings of a markdown document (duplicates get -1, -2 …). */
function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    const m = inCode ? null : /^#{1,6}\s+(.+?)\s*$/.exec(line);
    if (!m) continue;
    const slug = m[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug);
    seen.set(slug, (n ?? -1) + 1);
    out.add(n === undefined ? slug : `${slug}-${n + 1}`);
  }
  for (const m of markdown.matchAll(/<a id="([^"]+)"/g)) out.add(m[1]);
  return out;
}

describe('documentation', () => {
  let env: TestEnv;
  let routes: Route[];
  const apiMd = read('docs/api.md');
  const pagesMd = read('docs/pages.md');
  const mediaMd = read('docs/media.md');

  beforeAll(async () => {
    env = await createTestEnv('sqlite');
    routes = apiRoutes(env);
  });
  afterAll(async () => env?.close());

  it('documents every error code with its status in the Errors table of docs/api.md', () => {
    const rows = tableRows(section(apiMd, 'Errors'));
    const missing = Object.entries(ERROR_CODES).filter(
      ([code, status]) => !rows.some((cells) => cells.includes(`\`${code}\``) && cells.includes(String(status)) && cells.at(-1) !== ''),
    );
    expect(missing.map(([code, status]) => `${status} ${code}`)).toEqual([]);
    const documented = rows.flatMap((cells) => cells.filter((c) => /^`[A-Z][A-Z_]+`$/.test(c)).map((c) => c.slice(1, -1)));
    expect(documented.filter((code) => !(code in ERROR_CODES))).toEqual([]);
  });

  it('collects the routes of both APIs (printRoutes agrees with the OpenAPI document)', async () => {
    const found = new Set(routes.map(key));
    expect(found.has('GET /api/v1/public/entries')).toBe(true);
    expect(found.has('PATCH /api/v1/manage/content-types/:slug/entries/:entry_slug/publish')).toBe(true);
    const doc = (await env.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const fromOpenApi = Object.entries(doc.paths)
      .filter(([p]) => API_PREFIXES.some((prefix) => p.startsWith(`${prefix}/`)))
      .flatMap(([p, ops]) =>
        Object.keys(ops)
          .filter((m) => m !== 'head')
          .map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
      );
    expect(fromOpenApi.length).toBeGreaterThan(0);
    expect(fromOpenApi.filter((r) => !found.has(r))).toEqual([]);
  });

  it('mentions every management and delivery route in docs/api.md, docs/pages.md or docs/media.md', () => {
    const undocumented = routes.filter((r) => {
      const full = pathPattern(r.url);
      if (mentions(apiMd, r.method, [full])) return false;
      // pages.md and media.md write management paths relative to /api/v1/manage.
      const patterns = r.url.startsWith('/api/v1/manage/') ? [full, pathPattern(r.url.slice('/api/v1/manage'.length))] : [full];
      return !mentions(pagesMd, r.method, patterns) && !mentions(mediaMd, r.method, patterns);
    });
    expect(undocumented.map(key)).toEqual([]);
  });

  it('lists exactly the registered routes in the endpoint index of docs/api.md', () => {
    const index = tableRows(section(apiMd, 'Endpoint index'))
      .filter((cells) => /^[A-Z]+$/.test(cells[0] ?? '') && /^`\/api\/v1\//.test(cells[1] ?? ''))
      .map((cells) => `${cells[0]} ${cells[1].slice(1, -1).replace(/\{(\w+)\}/g, ':$1')}`);
    expect(new Set(index).size).toBe(index.length);
    const registered = routes.map(key);
    expect(registered.filter((r) => !index.includes(r))).toEqual([]);
    expect(index.filter((r) => !registered.includes(r))).toEqual([]);
  });

  it('opens README.md with a title, a one-line description and the two commands', () => {
    const lines = read('README.md')
      .replace(/^\uFEFF/, '')
      .split('\n');
    const fence = lines.findIndex((l) => l.startsWith('```'));
    expect(lines[0]).toMatch(/^# \S/);
    const between = lines.slice(1, fence).filter((l) => l.trim() !== '');
    expect(between).toHaveLength(1);
    expect(between[0]).not.toMatch(/^[#`|>-]/);
    expect(lines[fence]).toMatch(/^```(sh|bash|shell)?( no-run .+)?$/);
    expect(lines.slice(fence + 1, fence + 4)).toEqual(['npm install && npm start', 'npm test', '```']);
  });

  it('has working relative links and anchors in README.md and docs/*.md', () => {
    const files = [
      'README.md',
      ...fs
        .readdirSync(path.join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const broken: string[] = [];
    for (const file of files) {
      const text = read(file);
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1];
        if (/^[a-z]+:/i.test(link)) continue;
        const [target, anchor] = link.split('#');
        const resolved = target ? path.resolve(path.dirname(path.join(ROOT, file)), target) : path.join(ROOT, file);
        // Links to the shared specification beside the repository are not ours to check.
        if (!resolved.startsWith(ROOT + path.sep)) continue;
        if (!fs.existsSync(resolved)) broken.push(`${file}: ${link} (no such file)`);
        else if (anchor && resolved.endsWith('.md') && !anchorsOf(fs.readFileSync(resolved, 'utf8')).has(anchor))
          broken.push(`${file}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});

/** Folders and files whose text must not point outside the repository for a rule. */
const OWN_TEXT = ['src', 'test', 'studio/src', 'docs', 'README.md', 'scripts', 'bench'];
/** Folders whose code comments may cite sections of docs/. */
const CITING = ['src', 'studio/src', 'test'];
const SKIP_DIRS = new Set(['node_modules', 'dist']);

/** Every file under `rel` (a folder or a file), relative to the root, without node_modules and dist. */
function filesUnder(rel: string): string[] {
  const abs = path.join(ROOT, rel);
  if (!fs.existsSync(abs)) return [];
  if (!fs.statSync(abs).isDirectory()) return [rel];
  const out: string[] = [];
  for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIP_DIRS.has(entry.name)) continue;
    out.push(...filesUnder(path.join(rel, entry.name)));
  }
  return out;
}

/** The `src` folders of the workspace packages and examples (packages/client/src, examples/site/src). */
function packageSources(): string[] {
  return ['packages', 'examples'].flatMap((dir) =>
    fs.existsSync(path.join(ROOT, dir))
      ? fs
          .readdirSync(path.join(ROOT, dir))
          .map((name) => path.join(dir, name, 'src'))
          .filter((src) => fs.existsSync(path.join(ROOT, src)))
      : [],
  );
}

/** Text of a file, or null for a binary one (images, fonts). */
function textOf(rel: string): string | null {
  const buf = fs.readFileSync(path.join(ROOT, rel));
  return buf.includes(0) ? null : buf.toString('utf8');
}

/**
 * The section names of a markdown document, lowercased: its headings (outside code blocks) and
 * the bold names that open a paragraph or list item (`**Streaming and failures.**`).
 */
function sectionsOf(markdown: string): string[] {
  const out: string[] = [];
  let inCode = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inCode = !inCode;
    if (inCode) continue;
    const heading = /^#{1,6}\s+(.+?)\s*$/.exec(line);
    if (heading) out.push(heading[1].toLowerCase());
    const bold = /^(?:[-*]\s+|\d+\.\s+)?\*\*(.+?)\*\*/.exec(line);
    if (bold) out.push(bold[1].replace(/[.:]$/, '').toLowerCase());
  }
  return out;
}

/**
 * The `docs/<file>.md "<section>"` citations of a source text, comment lines joined first so a
 * citation may wrap; a citation may name several sections of one file:
 * `docs/api.md "Wire format" (D1, D6), "Localization" (D40)`.
 */
function docCitations(text: string): { file: string; section: string }[] {
  const joined = text.replace(/[ \t]*\r?\n[ \t]*(?:\*(?!\/)|\/\/)?[ \t]*/g, ' ');
  const out: { file: string; section: string }[] = [];
  for (const m of joined.matchAll(/docs\/([\w-]+\.md)((?:,? "[^"]+"(?: \([^()]*\))?)+)/g))
    for (const q of m[2].matchAll(/"([^"]+)"/g)) out.push({ file: m[1], section: q[1] });
  return out;
}

describe('the docs stand on their own', () => {
  // Built from parts, so that this file does not itself hold what it looks for.
  const needles = [['DECISIONS', 'md'].join('.'), ['..', 'shared', 'spec'].join('/')];

  it('finds the folders it checks', () => {
    const files = [...OWN_TEXT, ...packageSources()].flatMap(filesUnder);
    expect(files).toContain('docs/api.md');
    expect(files).toContain('src/app.ts');
    expect(files.some((f) => f.startsWith(`packages${path.sep}`))).toBe(true);
    expect(files.some((f) => f.includes('node_modules') || f.split(path.sep).includes('dist'))).toBe(false);
  });

  it('points nowhere outside the repository for a rule (no rule list or spec folder of the specification)', () => {
    const found: string[] = [];
    for (const file of [...OWN_TEXT, ...packageSources()].flatMap(filesUnder)) {
      const text = textOf(file);
      if (text === null) continue;
      text.split('\n').forEach((line, i) => {
        if (needles.some((n) => line.includes(n))) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('reads a citation of several sections and a citation that wraps', () => {
    const text = ['/**', ' * Rules (docs/api.md "Wire format" (D1, D6), "Localization"', ' * (D40); docs/media.md "Folders").', ' */'].join('\n');
    expect(docCitations(text)).toEqual([
      { file: 'api.md', section: 'Wire format' },
      { file: 'api.md', section: 'Localization' },
      { file: 'media.md', section: 'Folders' },
    ]);
    expect(sectionsOf('# Title\n\n**Streaming and failures.** More.\n```\n# not a heading\n```\n')).toEqual(['title', 'streaming and failures']);
  });

  it('cites only sections of docs/*.md that exist', () => {
    const sections = new Map<string, string[]>();
    const broken: string[] = [];
    let count = 0;
    for (const file of CITING.flatMap(filesUnder)) {
      const text = textOf(file);
      if (text === null) continue;
      for (const { file: doc, section } of docCitations(text)) {
        count++;
        if (!sections.has(doc)) sections.set(doc, fs.existsSync(path.join(ROOT, 'docs', doc)) ? sectionsOf(read(`docs/${doc}`)) : []);
        const wanted = section.toLowerCase();
        if (!sections.get(doc)!.some((h) => h.includes(wanted))) broken.push(`${file}: docs/${doc} "${section}"`);
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });
});
