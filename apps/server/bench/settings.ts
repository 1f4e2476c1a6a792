/** The bench's settings (environment variables, see run.ts) and its small shared helpers. */
export const REFORMS = Number(process.env.BENCH_REFORMS ?? 100_000);
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** Each scenario runs this many times in a row (rounds of the whole list); the first round and the median are reported. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const SATURATION_CONNECTIONS = 20;
export const HEALTH_UNDER_LOAD_CONNECTIONS = 2;
export const IDLE_SECONDS = 5;
export const ENGINE = (process.env.BENCH_ENGINE ?? 'both') as Engine | 'both';
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const KEEP = process.env.BENCH_KEEP === '1';
export const PASSWORD = 'Reformes2026!';
export const PER_PAGE = 10;

/** The goal for the embedded mode: the app and its database together, MB. */
export const EMBEDDED_TOTAL_MAX_MB = 250;

export type Engine = 'embedded' | 'postgres';

if (!['embedded', 'postgres', 'both'].includes(ENGINE)) throw new Error(`BENCH_ENGINE must be embedded, postgres or both, not ${ENGINE}`);
for (const [name, value] of Object.entries({
  BENCH_REFORMS: REFORMS,
  BENCH_SECONDS: SECONDS,
  BENCH_CONNECTIONS: CONNECTIONS,
  BENCH_ROUNDS: ROUNDS,
})) {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
}

export const log = (line = '') => console.log(line);
export const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** What to undo on the way out, last first: servers started, scratch database, temporary directories. */
export const cleanups: Array<() => Promise<void>> = [];
export async function cleanUp() {
  while (cleanups.length > 0) await (cleanups.pop() as () => Promise<void>)().catch((error) => console.error(error));
}

/** Runs a bench's main, then undoes what it started whatever happened; a failure exits 1. */
export async function runMain(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (error) {
    console.error(error);
    process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}
