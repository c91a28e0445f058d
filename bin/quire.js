#!/usr/bin/env node
// `npx quire <command>` (DECISIONS.md D61): runs the compiled CLI (built by `npm install`
// through `prepare`, or `npm run build`) with this process's environment and streams.
let cli;
try {
  cli = await import('../dist/src/cli/index.js');
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/src/cli')) {
    process.stderr.write('quire: the build output is missing; run `npm run build` first\n');
    process.exit(1);
  }
  throw err;
}
process.exitCode = await cli.runCli(process.argv.slice(2), cli.processIo());
