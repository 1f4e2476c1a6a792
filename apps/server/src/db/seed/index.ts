import type { Config } from '../../config.ts';
import { type Database, withStartupLock } from '../client.ts';
import { hasNoUsers, seedDemoData } from './demo.ts';
import { seedReferenceData } from './reference.ts';

/**
 * Reference data on an empty database; the demo data set on a database without any account when
 * `config.seedDemo` allows it (by default with the embedded database, with DATABASE_URL only on an explicit
 * SEED_DEMO=true), never with NODE_ENV=production (architecture §5). On PostgreSQL, instances starting
 * together seed one after the other: the second finds the accounts and leaves them alone.
 */
export async function seedDatabase(database: Database, config: Config, log: (message: string) => void): Promise<void> {
  await withStartupLock(database, 727002, async (db) => {
    if (await seedReferenceData(db)) log('Données de référence créées (rôles, droits, menus, natures).');
    if (!config.seedDemo || !(await hasNoUsers(db))) return;
    if (config.env === 'production') {
      log(
        'Base sans compte : pas de données de démonstration avec NODE_ENV=production (créez un administrateur avec npm run create-admin).',
      );
      return;
    }
    await seedDemoData(db);
    log('Jeu de données de démonstration créé (mot de passe des comptes : Reformes2026!).');
  });
}
