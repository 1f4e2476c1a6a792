import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    // The upgrade test builds the previous release from git: its own run, vitest.upgrade.config.ts.
    exclude: [...configDefaults.exclude, '**/upgrade.test.ts'],
    pool: 'forks',
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
