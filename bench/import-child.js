#!/usr/bin/env node
/**
 * `node bench/import-child.js FILE WORKSPACE`: the compiled `quire import contentful` command
 * (dist/; the runtime and command function bin/quire.js runs) for bench/import.js. Its progress
 * bars are drawn into a stream that stands for a terminal, which tells when each phase began.
 * Prints the command's JSON report on stdout and, at the end, on stderr:
 * `BENCH {"maxRssMiB": …, "phases": {"read": seconds, "plan": …, "assets": …, "entries": …, "links": …}}`.
 */
const { openRuntime } = await import('../dist/src/cli/runtime.js');
const { runImportContentful } = await import('../dist/src/cli/commands/import-contentful.js');

const [file, workspace] = process.argv.slice(2);
// The phases in the order the bars show them, by their labels (cli/commands/import-contentful.ts).
const LABELS = { Reading: 'read', Planning: 'plan', Assets: 'assets', Entries: 'entries', Links: 'links', Pages: 'pages' };
const started = performance.now();
const seen = [];
const terminal = {
  isTTY: true,
  columns: 120,
  write(chunk) {
    for (const [label, phase] of Object.entries(LABELS)) {
      if (!seen.some((s) => s.phase === phase) && String(chunk).includes(label)) seen.push({ phase, at: performance.now() });
    }
    return true;
  },
};
const io = { env: process.env, stdout: terminal, stderr: process.stderr };
const runtime = await openRuntime(io);
let result;
try {
  result = await runImportContentful(runtime.ctx, io, { file, workspace, json: false });
} finally {
  await runtime.close();
}
const ended = performance.now();
const phases = {};
seen.forEach((s, i) => (phases[s.phase] = Number((((seen[i + 1]?.at ?? ended) - s.at) / 1000).toFixed(1))));
process.stdout.write(`${JSON.stringify(result.json)}\n`);
process.stderr.write(
  `\nBENCH ${JSON.stringify({ maxRssMiB: process.resourceUsage().maxRSS / 1024, phases, startup: Number((((seen[0]?.at ?? ended) - started) / 1000).toFixed(1)) })}\n`,
);
