#!/usr/bin/env node
// The compiled `quire` CLI (bin/quire.js's work) for bench/import.js, printing the process's peak
// RSS on stderr at the end: `BENCH {"maxRssMiB": …}`.
const { runCli, processIo } = await import('../dist/src/cli/index.js');
const code = await runCli(process.argv.slice(2), processIo());
process.stderr.write(`\nBENCH ${JSON.stringify({ maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
process.exitCode = code;
