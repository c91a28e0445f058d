import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { LongestFirstSequencer } from './test/sequencer.js';

// Three projects, two workers for CI's two cores, the longest files first (test/sequencer.ts).
// server: integration suites and unit tests of src/, in forks (better-sqlite3 and pg pools are
// happiest in their own process). Its files share their worker's process and module cache
// (isolate: false): importing the app once per worker instead of once per file halves the CPU of
// a typical file. Every suite builds its own app and database (test/helpers.ts), and no suite
// mocks modules or changes process.env or globals, so nothing but the loaded code is shared.
// server-isolated: files that keep a process of their own: the browser suites (each prints the
// axe results its process gathered) and the suites asserting latencies, which must not pay for
// a heap grown by earlier files, and test/client-pack.test.ts, which installs the packed client
// into fresh projects and builds them (npm, tsc, Vite, Astro). studio: component tests of the Studio's widgets in jsdom, also
// sharing their worker's module cache (each test renders into a fresh tree; test-setup.ts
// cleans up after every test).
const ISOLATED = [
  'test/e2e/**/*.test.ts',
  'test/client-pack.test.ts',
  'test/no-stalls.test.ts',
  'test/index-builds.test.ts',
  'test/faults/hostile-input.test.ts',
  'test/faults/slow-clients.test.ts',
  'test/security/upload-stall.test.ts',
  'test/no-async-hooks.test.ts',
];
// One copy of graphql: test files and src import it through Vite, which would pick its ESM build
// (index.mjs), while graphql-yoga and graphql-query-complexity, loaded by Node, get its CommonJS
// build (index.js); schema objects of one copy are refused by the other ("from another module or
// realm"). Pointing Vite at index.js makes both the same module, as in production.
const oneGraphql = { alias: [{ find: /^graphql$/, replacement: fileURLToPath(new URL('./node_modules/graphql/index.js', import.meta.url)) }] };
const server = {
  pool: 'forks',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  globalSetup: ['test/global-setup.ts'],
} as const;

export default defineConfig({
  test: {
    maxWorkers: 2,
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        resolve: oneGraphql,
        test: {
          ...server,
          name: 'server',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
        },
      },
      {
        resolve: oneGraphql,
        test: {
          ...server,
          name: 'server-isolated',
          include: ISOLATED,
        },
      },
      {
        // client-types: the type tests of @quire/client (packages/client/type-tests), checked by tsc
        // under vitest's typecheck mode: expectTypeOf assertions and @ts-expect-error lines that
        // fail when a narrowing of fields, filters, sorts or writes regresses.
        test: {
          name: 'client-types',
          typecheck: {
            enabled: true,
            only: true,
            include: ['packages/client/type-tests/**/*.test-d.ts'],
            tsconfig: 'packages/client/type-tests/tsconfig.json',
          },
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'studio',
          include: ['studio/src/**/*.test.tsx', 'studio/src/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['studio/test-setup.ts'],
          testTimeout: 30_000,
          isolate: false,
        },
      },
    ],
  },
});
