import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The zero-downtime upgrade test alone (src/modules/health/upgrade.test.ts), out of `npm test`: it checks out and
 * builds the previous release in a git worktree. `npm run test:upgrade`.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'server-upgrade',
    include: ['src/**/upgrade.test.ts'],
    pool: 'forks',
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 400_000,
    hookTimeout: 60_000,
  },
});
