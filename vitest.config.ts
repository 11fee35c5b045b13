import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: ['test/conformance/**', 'test/release/**', 'test/site/**', 'node_modules/**'],
          testTimeout: 30_000,
          setupFiles: ['test/helpers/setup.ts'],
        },
      },
      {
        // slow: builds the single executable, packs and installs the npm tarball, runs pre-commit
        // (npm run test:release; .ci/run runs it)
        test: {
          name: 'release',
          include: ['test/release/**/*.test.ts'],
          testTimeout: 600_000,
          hookTimeout: 900_000,
          setupFiles: ['test/helpers/setup.ts'],
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
        },
      },
      {
        // the playground (dist/site/) in Debian's chromium, driven by playwright-core
        // (npm run test:site; .ci/run runs it and installs chromium when missing)
        test: {
          name: 'site',
          include: ['test/site/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          setupFiles: ['test/helpers/setup.ts'],
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
        },
      },
      {
        test: {
          name: 'conformance',
          include: ['test/conformance/**/*.test.ts'],
          testTimeout: 300_000,
          setupFiles: ['test/helpers/setup.ts'],
          hookTimeout: 900_000,
          pool: 'forks',
          poolOptions: { forks: { singleFork: true } },
        },
      },
    ],
  },
});
