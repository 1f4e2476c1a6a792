import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import type { Database } from './db/client.ts';
import { DataDirLockedError } from './db/data-dir-lock.ts';
import { EmbeddedClusterError } from './db/embedded-cluster.ts';
import { openDatabase } from './db/open-database.ts';
import { seedDatabase } from './db/seed/index.ts';

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
  let skipReadyDelay: () => void = () => undefined;
  /**
   * A rolling restart's stop (docs/operations.md): readiness answers 503 at once while requests are still served,
   * for SHUTDOWN_READY_DELAY_MS, so that the load balancer takes the instance out; then the listener closes (idle
   * keep-alive connections with it), the requests under way finish, the work left for after an answer (mails)
   * and the timers end (onClose hooks), the pool and the embedded database close. All within SHUTDOWN_TIMEOUT_MS.
   */
  const stop = async (signal: string) => {
    if (stopping) {
      // A second Ctrl-C does not wait for the load balancer.
      skipReadyDelay();
      return;
    }
    stopping = true;
    const timer = setTimeout(() => {
      app.log.error(`arrêt trop long (plus de ${config.shutdownTimeoutMs} ms) : sortie forcée, les requêtes en cours sont coupées`);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    app.drain();
    app.log.info({ signal, readyDelayMs: config.shutdownReadyDelayMs }, 'arrêt en cours : la disponibilité (health/ready) répond 503');
    await new Promise<void>((resolve) => {
      const delay = setTimeout(resolve, config.shutdownReadyDelayMs);
      skipReadyDelay = () => {
        clearTimeout(delay);
        resolve();
      };
    });
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
