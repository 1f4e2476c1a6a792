import { count } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import type { Database } from '../client.ts';
import { runMigrations } from '../migrate.ts';
import { reformes, users } from '../schema/index.ts';
import { seedDatabase } from './index.ts';

const POSTGRES = { DATABASE_URL: 'postgres://reformes@db.example:5432/reformes', JWT_SECRET: 'x'.repeat(40) };

describe('SEED_DEMO (architecture §5)', () => {
  it('defaults to yes with the embedded database and to no with DATABASE_URL', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig(POSTGRES).seedDemo).toBe(false);
    expect(loadConfig({ ...POSTGRES, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(() => loadConfig({ SEED_DEMO: 'oui' })).toThrow('SEED_DEMO');
  });

  it('defaults to no when HOST is not a loopback address, unless SEED_DEMO=true', () => {
    const exposed = { HOST: '0.0.0.0', JWT_SECRET: 'x'.repeat(40), METRICS_TOKEN: 'm'.repeat(40) };
    expect(loadConfig(exposed).seedDemo).toBe(false);
    expect(loadConfig({ ...exposed, SEED_DEMO: 'true' }).seedDemo).toBe(true);
  });

  describe('seeding an empty database', () => {
    let database: Database | undefined;
    afterEach(async () => {
      await database?.close();
      database = undefined;
    });

    async function emptyDatabase(): Promise<Database> {
      database = await createTestDatabase();
      await runMigrations(database);
      return database;
    }

    async function counts(db: Database['db']) {
      const [{ value: userCount }] = await db.select({ value: count() }).from(users);
      const [{ value: reformeCount }] = await db.select({ value: count() }).from(reformes);
      return { users: userCount, reformes: reformeCount };
    }

    it('creates the demo data set with DATABASE_URL and an explicit SEED_DEMO=true, once', async () => {
      const db = await emptyDatabase();
      const config = loadConfig({ ...POSTGRES, SEED_DEMO: 'true', LOG_LEVEL: 'silent' });
      const messages: string[] = [];
      await seedDatabase(db, config, (message) => messages.push(message));
      const seeded = await counts(db.db);
      expect(seeded.users).toBe(5);
      expect(seeded.reformes).toBeGreaterThanOrEqual(30);
      expect(messages.join('\n')).toContain('Jeu de données de démonstration créé');

      // A restart finds the accounts: nothing is added.
      await seedDatabase(db, config, () => undefined);
      expect(await counts(db.db)).toEqual(seeded);
    });

    it('creates only the reference data with DATABASE_URL when SEED_DEMO is not set', async () => {
      const db = await emptyDatabase();
      await seedDatabase(db, loadConfig(POSTGRES), () => undefined);
      expect(await counts(db.db)).toEqual({ users: 0, reformes: 0 });
    });

    it('creates no demo account on the embedded database served beyond this machine, and says how to get one', async () => {
      const db = await emptyDatabase();
      const messages: string[] = [];
      await seedDatabase(db, loadConfig({ HOST: '0.0.0.0', JWT_SECRET: 'x'.repeat(40), METRICS_TOKEN: 'm'.repeat(40) }), (message) =>
        messages.push(message),
      );
      expect(await counts(db.db)).toEqual({ users: 0, reformes: 0 });
      expect(messages.join('\n')).toContain('SEED_DEMO=true');
      expect(messages.join('\n')).toContain('npm run create-admin');
    });

    it('never creates demo data with NODE_ENV=production, even with SEED_DEMO=true', async () => {
      const db = await emptyDatabase();
      const config = loadConfig({ ...POSTGRES, SEED_DEMO: 'true', NODE_ENV: 'production' });
      const messages: string[] = [];
      await seedDatabase(db, config, (message) => messages.push(message));
      expect(await counts(db.db)).toEqual({ users: 0, reformes: 0 });
      expect(messages.join('\n')).toContain('create-admin');
    });
  });
});
