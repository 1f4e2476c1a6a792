import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/domain', 'apps/server', 'apps/web', 'scripts/vitest.config.mjs'],
    // Vitest's default is one worker per core but one (cores - 1), a single worker on these 2-core machines; the
    // files mostly wait on PostgreSQL or on jsdom's imports, so two at a time halve the run (about 9 -> 4.5 minutes).
    maxWorkers: 2,
  },
});
