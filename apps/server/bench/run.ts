/**
 * Benchmark at scale (issue 12): 100 000 reforms with their objectives, results, follow-ups, attachments and
 * history, on the embedded database (the PostgreSQL cluster the server runs itself, issue 27) and on an external
 * PostgreSQL, measured through a real listening server started with `npm run serve` and loaded concurrently with
 * autocannon. See docs/performance.md.
 *
 *   npm run bench                                   # both engines (the external PostgreSQL when it answers)
 *   BENCH_ENGINE=embedded|postgres|both             # choose
 *   BENCH_REFORMS=100000 BENCH_SECONDS=5 BENCH_CONNECTIONS=10
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres   # where the scratch database is created
 *                                                   # (default: DATABASE_URL, else that address)
 *   BENCH_KEEP=1                                    # keep the temporary data directories
 *
 * Every figure is a ratio to the health route of the same run, because the machines are shared and noisy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchParameters } from './bulk-data.ts';
import { createScratchDatabase, fillEmbedded, fillPostgres, postgresAnswers } from './fill.ts';
import { drain, type LoadResult, type Probe, probe, runLoad } from './load.ts';
import { MemorySampler } from './processes.ts';
import { type EngineReport, formatRound, type Line, machine, num, report, statusOf } from './report.ts';
import { scenarios, serverEnv, signInAll } from './scenarios.ts';
import { ensureBuilt, type ServerHandle, startServer } from './server.ts';
import {
  ADMIN_URL,
  CONNECTIONS,
  cleanUp,
  cleanups,
  ENGINE,
  type Engine,
  IDLE_SECONDS,
  KEEP,
  log,
  REFORMS,
  ROUNDS,
  runMain,
  SECONDS,
  seconds,
} from './settings.ts';

// ---------------------------------------------------------------------------------------------------------
// Cleanup on the way out (also on Ctrl-C): servers started, scratch database, temporary directories.

process.once('SIGINT', () => {
  console.error('\ninterrupted: cleaning up');
  void cleanUp().then(() => process.exit(130));
});

function tempDir(engine: Engine): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `reformes-bench-${engine}-`));
  if (!KEEP) cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function started(env: NodeJS.ProcessEnv, logFile: string): Promise<ServerHandle> {
  const server = await startServer(env, logFile);
  let stopped = false;
  const stop = server.stop;
  server.stop = async () => {
    if (stopped) return;
    stopped = true;
    await stop();
  };
  cleanups.push(() => server.stop());
  return server;
}

// ---------------------------------------------------------------------------------------------------------
// Measures.

async function measure(engine: Engine, env: NodeJS.ProcessEnv, dataDir: string, parameters: BenchParameters) {
  const server = await started(env, path.join(dataDir, 'server.log'));
  const sampler = new MemorySampler(server.serverPid).start();
  log(`  server pid ${server.serverPid} (npm wrapper ${server.wrapperPid}) on ${server.baseUrl}`);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const idleStart = await sampler.settle();

  const all = scenarios(parameters, await signInAll(server.baseUrl));
  // Warm-up (JIT, connection pool), not recorded.
  await runLoad(server.baseUrl, { ...all.health, seconds: 2 });

  // The baseline (1fe48ab) has no readiness route: its health route pinged the database itself.
  const hasReady = (await probe(server.baseUrl, all.ready)).status === 200;
  const specs = [
    all.health,
    ...(hasReady ? [all.ready] : []),
    all.deepPage,
    all.filtered,
    all.searchFirst,
    all.searchDeep,
    all.publicList,
    all.publicSearch,
    all.dashboard,
    all.picker,
    all.portfolio,
    all.portfolioFiltered,
    all.portfolioCounts,
    all.signedIn,
    all.history,
  ];
  const lines = new Map<string, Line>();
  const record = (label: string, result: LoadResult, drained: number, first?: Probe) => {
    const line = lines.get(label) ?? { label, rounds: [], drained: [], probe: first };
    line.rounds.push(result);
    line.drained.push(drained);
    lines.set(label, line);
    return line;
  };
  for (let round = 1; round <= ROUNDS; round++) {
    log(`  round ${round} of ${ROUNDS}`);
    for (const spec of specs) {
      const first = round === 1 ? await probe(server.baseUrl, spec) : undefined;
      const result = await runLoad(server.baseUrl, spec);
      // Requests still queued in the server keep the database busy: the next endpoint starts on a drained server.
      const line = record(spec.name, result, await drain(server.baseUrl), first);
      log(`    ${formatRound(line, result)}`);
    }
    // 8: the list saturated and, at the same time, a few connections on the health route.
    const [saturated, healthUnderLoad] = await Promise.all([
      runLoad(server.baseUrl, all.saturated),
      runLoad(server.baseUrl, all.healthUnderLoad),
    ]);
    const drained = await drain(server.baseUrl);
    log(`    ${formatRound(record(all.saturated.name, saturated, drained), saturated)}`);
    log(`    ${formatRound(record(all.healthUnderLoad.name, healthUnderLoad, 0), healthUnderLoad)}`);
  }

  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idleAfter = await sampler.settle();
  sampler.stop();
  await server.stop();
  log(`  ${engine}: server stopped`);
  return {
    lines: [...lines.values()],
    health: lines.get(all.health.name) as Line,
    ready: hasReady ? lines.get(all.ready.name) : undefined,
    memory: { idleStart, idleAfter, sampler, serverPid: server.serverPid },
  };
}

async function runEngine(engine: Engine): Promise<EngineReport> {
  const t0 = Date.now();
  log(`\n=== ${engine === 'embedded' ? 'embedded (PostgreSQL cluster run by the server)' : 'PostgreSQL'} ===`);
  const dataDir = tempDir(engine);
  const databaseUrl = engine === 'postgres' ? await createScratchDatabase() : undefined;
  const env = serverEnv(dataDir, databaseUrl);

  let t = Date.now();
  const first = await started(env, path.join(dataDir, 'server.log'));
  await first.stop();
  const prepare = seconds(t);
  log(`  first start (migrations, seed) and stop: ${prepare}`);

  t = Date.now();
  log(`  inserting ${REFORMS} reforms and their children:`);
  const { counts, parameters, version } = engine === 'embedded' ? await fillEmbedded(dataDir) : await fillPostgres(databaseUrl as string);
  const fill = seconds(t);
  log(`  data ready in ${fill}: ${JSON.stringify(counts)}`);
  log(`  parameters: ${JSON.stringify(parameters)}`);

  t = Date.now();
  const measured = await measure(engine, env, dataDir, parameters);
  const load = os
    .loadavg()
    .map((value) => num(value, 2))
    .join(' ');
  const timings = `first start ${prepare}, bulk insert ${fill}, measures ${seconds(t)}, total ${seconds(t0)}; load average at the end ${load}`;
  await cleanUp();
  return { engine, version, counts, parameters, ...measured, timings };
}

async function main() {
  const t0 = Date.now();
  const header = machine();
  const { version: pgVersion, error: pgError } = ENGINE === 'embedded' ? {} : await postgresAnswers();
  const where = ADMIN_URL.replace(/:[^:@/]*@/, ':***@');
  if (ENGINE === 'postgres' && !pgVersion) throw new Error(`PostgreSQL does not answer at ${where}: ${pgError}`);
  const engines: Engine[] = ENGINE === 'both' ? (pgVersion ? ['embedded', 'postgres'] : ['embedded']) : [ENGINE];
  if (ENGINE === 'both' && !pgVersion) log(`PostgreSQL does not answer at ${where} (${pgError}): embedded engine only`);
  if (pgVersion) header.push(`PostgreSQL ${pgVersion}`);
  header.push(
    `BENCH_REFORMS=${REFORMS} BENCH_SECONDS=${SECONDS} BENCH_CONNECTIONS=${CONNECTIONS} BENCH_ROUNDS=${ROUNDS} engines: ${engines.join(', ')}`,
  );
  for (const line of header) log(line);
  ensureBuilt(log);

  const reports: EngineReport[] = [];
  for (const engine of engines) reports.push(await runEngine(engine));

  log('\n================ results ================');
  for (const line of header) log(line);
  const failures: string[] = [];
  for (const r of reports) {
    log('');
    for (const line of report(r)) log(line);
    for (const line of r.lines) {
      for (const [index, result] of line.rounds.entries()) {
        if (!statusOf(result).ok) failures.push(`${r.engine}: ${line.label}, round ${index + 1}: ${statusOf(result).text}`);
      }
    }
  }
  log(`\nbench finished in ${seconds(t0)}`);
  if (failures.length > 0) {
    console.error(`\nFAILED: non-2xx answers or errors:\n${failures.map((f) => `  ${f}`).join('\n')}`);
    process.exitCode = 1;
  }
}

await runMain(main);
