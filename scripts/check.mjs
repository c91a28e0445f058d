#!/usr/bin/env node
/**
 * The static checks of `npm test`, side by side: `node scripts/check.mjs [typecheck] [lint]`
 * (both groups when none is named; `npm run typecheck` and `npm run lint` name one).
 *
 * - typecheck: tsc on the server with its tests, the client package and the Studio (three
 *   projects, three settings: NodeNext, the client's ES2022 library build, the Studio's DOM and JSX);
 * - lint: ESLint over the repository, then Prettier's check.
 *
 * Each check is one single-threaded process of 3 to 40 CPU-seconds, so they run as many at once as
 * the machine has cores (on CI's two, about half the time of running them one after another),
 * the longest first. Each one's output is printed whole when it ends, under its name. Exits 1 when
 * any check failed (all of them still run, so one run reports every problem).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The checks, longest first (CPU-seconds on CI: ESLint ~40, tsc server ~30, Prettier ~26, tsc Studio ~24, tsc client ~3). */
const CHECKS = [
  { group: 'lint', name: 'eslint', command: ['eslint', '.'] },
  { group: 'typecheck', name: 'tsc server', command: ['tsc', '-p', 'tsconfig.json', '--noEmit'] },
  { group: 'lint', name: 'prettier', command: ['prettier', '--check', '.'] },
  { group: 'typecheck', name: 'tsc studio', command: ['tsc', '-p', 'studio/tsconfig.json'] },
  { group: 'typecheck', name: 'tsc client', command: ['tsc', '-p', 'packages/client/tsconfig.json', '--noEmit'] },
];

const groups = process.argv.slice(2);
const unknown = groups.filter((g) => !CHECKS.some((c) => c.group === g));
if (unknown.length > 0) {
  process.stderr.write(`unknown check group ${unknown.join(', ')}: use typecheck and/or lint\n`);
  process.exit(2);
}
const selected = CHECKS.filter((c) => groups.length === 0 || groups.includes(c.group));
const env = { ...process.env, PATH: `${path.join(ROOT, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}` };

/** Runs one check to its end; resolves with its exit code (1 when it could not start) and output. */
function run(check) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(check.command[0], check.command.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (d) => chunks.push(d));
    child.stderr.on('data', (d) => chunks.push(d));
    child.on('error', (err) => chunks.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code) => resolve({ code: code ?? 1, output: Buffer.concat(chunks).toString(), seconds: (Date.now() - started) / 1000 }));
  });
}

const queue = [...selected];
let failed = 0;
const worker = async () => {
  for (let check = queue.shift(); check; check = queue.shift()) {
    const { code, output, seconds } = await run(check);
    if (code !== 0) failed += 1;
    const status = code === 0 ? 'ok' : `FAILED (exit ${code})`;
    process.stdout.write(`\n> ${check.command.join(' ')}: ${status} in ${seconds.toFixed(1)} s\n${output.trimEnd() ? `${output.trimEnd()}\n` : ''}`);
  }
};
await Promise.all(Array.from({ length: Math.min(os.availableParallelism(), selected.length) }, worker));
if (failed > 0) {
  process.stdout.write(`\n${failed} of ${selected.length} checks failed\n`);
  process.exit(1);
}
