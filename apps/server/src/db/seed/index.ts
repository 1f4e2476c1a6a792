import type { Config } from '../../config.ts';
import type { Database } from '../client.ts';
import { hasNoUsers, seedDemoData } from './demo.ts';
import { seedReferenceData } from './reference.ts';

/**
 * Reference data on an empty database; demo data only on a new embedded database
 * (never on PostgreSQL or in production, architecture §5).
 */
export async function seedDatabase(database: Database, config: Config, log: (message: string) => void): Promise<void> {
  if (await seedReferenceData(database.db)) log('Données de référence créées (rôles, droits, menus, natures).');
  const demoAllowed = config.seedDemo && config.env !== 'production' && database.kind === 'pglite';
  if (demoAllowed && (await hasNoUsers(database.db))) {
    await seedDemoData(database.db);
    log('Jeu de données de démonstration créé (mot de passe des comptes : Reformes2026!).');
  }
}
