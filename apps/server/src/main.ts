import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { EmbeddedClusterError } from './db/embedded-cluster.ts';
import { openDatabase } from './db/open-database.ts';
import { seedDatabase } from './db/seed/index.ts';

const SHUTDOWN_TIMEOUT_MS = 9_000;

/** A bad variable stops the start with its French message alone, without a stack trace. */
function configOrExit() {
  try {
    return loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

async function main() {
  const config = configOrExit();
  let database: Database;
  try {
    database = await openDatabase(config, { log: (message) => console.log(message) });
  } catch (error) {
    // A refusal is the whole message; anything else keeps its stack for the operator's bug report.
    const known = error instanceof DataDirLockedError || error instanceof EmbeddedClusterError;
    console.error(known ? (error as Error).message : error);
    process.exit(1);
  }
  const app = await buildApp({ config, database });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'arrêt en cours');
    const timer = setTimeout(() => {
      app.log.error('arrêt trop long, sortie forcée');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS);
    await app.close().catch((error) => app.log.error({ err: error }, 'fermeture HTTP'));
    await database.close().catch((error) => app.log.error({ err: error }, 'fermeture base'));
    clearTimeout(timer);
    app.log.info('arrêt terminé');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  try {
    await seedDatabase(database, config, (message) => app.log.info(message));
    await app.listen({ host: config.host, port: config.port });
    app.log.info(`Réformes est prêt sur http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`);
  } catch (error) {
    app.log.error({ err: error }, 'démarrage impossible');
    await database.close().catch(() => undefined);
    process.exit(1);
  }
}

await main();
