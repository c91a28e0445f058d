import { defineConfig } from 'vitest/config';

// Forks, not threads: better-sqlite3 and pg pools are happiest in their own process.
// Two workers match the two cores CI has.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['test/global-setup.ts'],
  },
});
