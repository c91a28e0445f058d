import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Two projects. server: integration suites and unit tests of src/, in forks (better-sqlite3 and pg
// pools are happiest in their own process), two workers for CI's two cores. studio: component
// tests of the Studio's widgets in jsdom.
export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
          pool: 'forks',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['test/global-setup.ts'],
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
        },
      },
    ],
  },
});
