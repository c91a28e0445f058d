// `quire` from the TypeScript sources in a process of its own (run with `node --import tsx`), so a
// suite can give it node flags such as --max-old-space-size (test/import-streaming.test.ts).
const { runCli, processIo } = await import('../src/cli/index.ts');
process.exitCode = await runCli(process.argv.slice(2), processIo());
