import { defineConfig } from 'vitest/config';

const CONFORMANCE_WORKERS = Math.max(1, Number(process.env['CRDX_CONFORMANCE_WORKERS'] ?? 2) || 1);

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
        // each file starts its own API servers and mostly waits on them: two files run at once
        // (npm run test:conformance passes --maxWorkers=CRDX_CONFORMANCE_WORKERS, default 2, as
        // vitest's own default is one worker on two cores; 1 runs the files one after the other)
        test: {
          name: 'conformance',
          include: ['test/conformance/**/*.test.ts'],
          testTimeout: 300_000,
          setupFiles: ['test/helpers/setup.ts'],
          hookTimeout: 900_000,
          pool: 'forks',
          poolOptions: { forks: { singleFork: CONFORMANCE_WORKERS === 1 } },
        },
      },
    ],
  },
});
