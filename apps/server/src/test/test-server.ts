import type { DatabaseKind } from '../db/client.ts';

/** The database server of a test run (global-setup.ts), handed to every test file through vitest's `inject`. */
export interface TestServer {
  /** postgres:// address of the server's maintenance database, where test databases are created. */
  url: string;
  /** `embedded` without DATABASE_URL: the test databases behave as the default mode's (logical backups...). */
  kind: DatabaseKind;
  /** Template databases: migrated only, or migrated with the reference and demo data. */
  templates: { migrated: string; seeded: string };
}

export const TEMPLATES = { migrated: 'reformes_tpl_migrated', seeded: 'reformes_tpl_seeded' };
