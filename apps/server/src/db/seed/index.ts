import type { Config } from '../../config.ts';
import { type Database, withStartupLock } from '../client.ts';
import { hasNoUsers, seedDemoData } from './demo.ts';
import { seedReferenceData } from './reference.ts';

/**
 * Reference data on an empty database; the demo data set on a database without any account when
 * `config.seedDemo` allows it (by default with the embedded database on a loopback HOST and no TRUST_PROXY; with
 * DATABASE_URL, another HOST or a proxy only on an explicit SEED_DEMO=true), never with NODE_ENV=production
 * (architecture §5). On PostgreSQL, instances starting together seed one after the other: the second finds the
 * accounts and leaves them alone.
 */
export async function seedDatabase(database: Database, config: Config, log: (message: string) => void): Promise<void> {
  await withStartupLock(database, 727002, async (db) => {
    if (await seedReferenceData(db)) log('Données de référence créées (rôles, droits, menus, natures).');
    if (!(await hasNoUsers(db))) return;
    if (!config.seedDemo) {
      log(
        'Base sans compte : pas de données de démonstration (SEED_DEMO=true pour les créer hors production, sinon créez un administrateur avec npm run create-admin).',
      );
      return;
    }
    if (config.env === 'production') {
      log(
        'Base sans compte : pas de données de démonstration avec NODE_ENV=production (créez un administrateur avec npm run create-admin).',
      );
      return;
    }
    await seedDemoData(db);
    // The published password stays out of the logs: the README lists the accounts.
    log('Jeu de données de démonstration créé (comptes de démonstration : voir README.md).');
  });
}
