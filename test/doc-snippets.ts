/**
 * The code blocks of README.md and docs/**\/*.md and the bash script that runs a file's blocks in
 * order (test/doc-snippets.test.ts says how they run; docs/README.md "Code blocks").
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import ts from 'typescript';
import { ROOT } from './build.js';

/** Blocks marked `no-run` in all the docs; raise it only for a block that truly cannot run. */
export const MAX_SKIPPED = 17;
const SHELL = new Set(['sh', 'bash', 'shell']);
const TYPESCRIPT = new Set(['ts', 'typescript']);

export interface Block {
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: 'sh' | 'ts';
  code: string;
  /** The reason after `no-run`, or null when the block runs. */
  skip: string | null;
  /** The ```json block right after a shell block (blank lines between at most): its last command's answer. */
  answer: string | null;
}

/** README.md and every markdown file under docs/, as paths relative to the repository. */
export function markdownFiles(): string[] {
  const under = (dir: string): string[] =>
    fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) return under(rel);
      return e.name.endsWith('.md') ? [rel] : [];
    });
  return ['README.md', ...under('docs').sort()];
}

/** The shell and TypeScript blocks of one markdown file (fences may be indented, as in lists). */
export function blocksOf(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,})(.*)$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, info] = open;
    let end = i + 1;
    while (end < lines.length && !(lines[end].trim().startsWith(fence) && lines[end].trim().replace(/`/g, '') === '')) end++;
    const body = lines.slice(i + 1, end).map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()));
    const [word = '', ...rest] = info.trim().split(/\s+/);
    const lang = SHELL.has(word) ? 'sh' : TYPESCRIPT.has(word) ? 'ts' : null;
    if (lang) {
      const skip = rest[0] === 'no-run' ? rest.slice(1).join(' ') : null;
      let next = end + 1;
      while (next < lines.length && lines[next].trim() === '') next++;
      let answer: string | null = null;
      if (lang === 'sh' && /^\s*```json\s*$/.test(lines[next] ?? '')) {
        let close = next + 1;
        while (close < lines.length && !/^\s*```\s*$/.test(lines[close])) close++;
        answer = lines.slice(next + 1, close).join('\n');
      }
      blocks.push({ file, line: i + 1, lang, code: body.join('\n'), skip, answer });
    }
    i = end;
  }
  return blocks;
}

/**
 * What the comment under a command says its answer is, as the arguments of `__expect`: `status 412`
 * for `# HTTP/1.1 412 …`, `code NOT_FOUND` for an error envelope, `graphql-errors -` for a GraphQL
 * answer with `errors`, `ok -` otherwise (below 400, no GraphQL errors).
 */
export function expectationOf(comments: string[]): string {
  // Only the line right under the command: later lines show other requests ("# again: …").
  const first = comments[0]?.replace(/^#\s?/, '');
  if (first === undefined || !(first.startsWith('HTTP/') || first.startsWith('{'))) return 'ok -';
  const status = /^HTTP\/[\d.]+ (\d{3})/.exec(first);
  if (status) return `status ${status[1]}`;
  if (/^\{\s*"errors":/.test(first)) return 'graphql-errors -';
  const code = /"code":\s*"([A-Z_]+)"/.exec(first);
  return code ? `code ${code[1]}` : 'ok -';
}

/**
 * The part of a ```json answer block that answers a block's last command: its last line when
 * every line is a document of its own (one answer per command), else the whole block.
 */
export function lastAnswer(json: string): string {
  const lines = json.split('\n').filter((l) => l.trim() !== '');
  return lines.every((l) => l.startsWith('{')) ? (lines.at(-1) ?? '') : json;
}

/**
 * A shell block prepared to run: each `curl` command (with its continuation lines and multi-line
 * quoted bodies) is preceded by `__expect <what its comment shows>`; the block's last command, when
 * no comment follows it, by what `answer` (the ```json block after the block) shows.
 */
export function annotateShell(code: string, answer: string | null = null): string {
  const lines = code.split('\n');
  const out: string[] = [];
  let last = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!/(^\s*(\w+=\S*\s+)*|\$\()curl\s/.test(lines[i])) {
      out.push(lines[i]);
      continue;
    }
    let end = i;
    const open = (s: string) => (s.replace(/"(?:[^"\\]|\\.)*"/g, '').match(/'/g)?.length ?? 0) % 2 === 1;
    let quoted = open(lines[i]);
    while (end + 1 < lines.length && (lines[end].trimEnd().endsWith('\\') || quoted)) {
      end++;
      if (open(lines[end])) quoted = !quoted;
    }
    const comments: string[] = [];
    for (let j = end + 1; j < lines.length && lines[j].trim().startsWith('#'); j++) comments.push(lines[j].trim());
    last = comments.length === 0 && lines.slice(end + 1).every((l) => l.trim() === '') ? out.length : -1;
    out.push(`__expect ${expectationOf(comments)}`, ...lines.slice(i, end + 1));
    i = end;
  }
  // The last command without a comment of its own is answered by the json block after the block.
  if (answer !== null && last >= 0) out[last] = `__expect ${expectationOf([`# ${lastAnswer(answer).trim()}`])}`;
  return out.join('\n');
}

/** The bash functions every file's script starts with (see the file comment). */
const PRELUDE = String.raw`
set -eEuo pipefail
__block=''
__kind=ok
__want=''
trap 'echo "@@failed in $__block (line $LINENO of its script)" >&2' ERR
__expect() { __kind=$1; __want=$2; }
curl() {
  local tmp status rc why=''
  tmp=$(mktemp -d)
  set +e
  command curl -sS -w '%{stderr}
@@status %{http_code}
' "$@" 2>"$tmp/err" | tee "$tmp/out"
  rc=$?
  set -e
  status=$(sed -n 's/^@@status //p' "$tmp/err" | tail -n 1)
  grep -v -e '^@@status ' -e '^$' "$tmp/err" >&2 || true
  if [ "$rc" -ne 0 ]; then why="curl exited with $rc"
  elif [ "$__kind" = status ]; then [ "$status" = "$__want" ] || why="expected HTTP $__want, got $status"
  elif [ "$__kind" = code ]; then
    { [ "$status" -ge 400 ] && grep -qF "\"code\":\"$__want\"" "$tmp/out"; } || why="expected error $__want, got HTTP $status"
  elif [ "$__kind" = graphql-errors ]; then grep -qF '{"errors":[' "$tmp/out" || why="expected GraphQL errors, got HTTP $status"
  elif [ "$status" -ge 400 ]; then why="unexpected HTTP $status"
  elif grep -qF '{"errors":[' "$tmp/out"; then why="unexpected GraphQL errors"
  fi
  if [ -n "$why" ]; then
    echo "@@curl in $__block: $why: curl $*" >&2
    head -c 2000 "$tmp/out" >&2
    echo >&2
    rm -rf "$tmp"
    return 1
  fi
  rm -rf "$tmp"
}
npx() {
  if [ "$#" -gt 0 ] && [ "$1" = quire ]; then shift; node "$QUIRE_ROOT/bin/quire.js" "$@"; else command npx "$@"; fi
}
__ts() { node "$1"; }
`;

/** The files the blocks upload, as a reader would have them: small images named as in the docs. */
export async function writeFixtures(dir: string): Promise<void> {
  const image = sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 120, b: 160 } } });
  await image.clone().jpeg().toFile(path.join(dir, 'team.jpg'));
  await image.clone().png().toFile(path.join(dir, 'team.png'));
  await image.clone().jpeg().toFile(path.join(dir, 'cover.jpg'));
}

/** One bash script running the blocks of a file in order; TypeScript blocks go to files beside it. */
export function scriptOf(blocks: Block[], work: string, base: string): string {
  const parts = [PRELUDE];
  blocks.forEach((b, n) => {
    const code = b.code.replaceAll('http://localhost:3000', base);
    parts.push(`__block='${b.file}:${b.line}'`);
    if (b.lang === 'sh') parts.push(annotateShell(code, b.answer), '__expect ok -');
    else {
      // TypeScript's own transpiler strips the types in this process; node then runs the module
      // (a tsx process per block costs a second of CPU more).
      const file = path.join(work, `block-${n + 1}-line-${b.line}.mjs`);
      const js = ts.transpileModule(`${code}\nexport {};\n`, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
        reportDiagnostics: false,
      }).outputText;
      fs.writeFileSync(file, js);
      parts.push(`__ts '${file}'`);
    }
  });
  parts.push('echo "@@done"');
  return parts.join('\n');
}
