#!/usr/bin/env node
/// <reference types="node" />
// `quire-client`, this package's command (cli.ts says what it does): the process's arguments,
// streams and environment in, its exit code out. No top-level await: the file is also compiled
// to CommonJS with the rest of the package.
import { runClientCli } from './cli.js';

void runClientCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env }).then((code) => {
  process.exitCode = code;
});
