import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/domain', 'apps/server', 'apps/web', 'scripts/vitest.config.mjs'],
    // Vitest runs cores - 1 workers by default, a single one on these 2-core machines; the
    // files mostly wait on PostgreSQL or on jsdom's imports, so two at a time halve the run (about 9 -> 4.5 minutes).
    maxWorkers: 2,
  },
});
