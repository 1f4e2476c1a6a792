/**
 * Paired before/after run (docs/performance.md, "Paired runs"): the compiled server of two git revisions in turn
 * against ONE PostgreSQL database filled once, so that the only difference between the two sides is the code.
 *
 *   BENCH_BEFORE=f2dbc28 BENCH_AFTER=15a1c4f npm run bench:paired
 *
 *   BENCH_BEFORE, BENCH_AFTER   the two revisions (default HEAD~1 and HEAD); each is checked out in its own
 *                               `git worktree` under os.tmpdir(), `npm ci` + `npm run build` there, and served
 *                               from that worktree's own dist by its own `npm run serve`; the worktrees are removed
 *                               at the end
 *   BENCH_PAIRS=2               rounds of before-then-after (ABAB...)
 *   BENCH_REFORMS=100000 BENCH_SECONDS=10 BENCH_CONNECTIONS=20      as `npm run bench` (settings.ts)
 *   BENCH_DATABASE_URL          PostgreSQL where the scratch database `reformes_bench_<pid>` is created
 *                               (default DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_KEEP=1                keep the scratch database, the worktrees and the servers' logs
 *
 * Both servers get the same environment (scenarios.ts's serverEnv, one DATA_DIR, one JWT secret) and the same
 * scenarios (scenarios.ts): liveness (the reference), list random page, search deep page, public page 1, public
 * search, public random page, portfolio random page. Each figure is also given as a ratio to the liveness of the
 * same server run, because these machines are shared: compare ratios within a run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchParameters } from './bulk-data.ts';
import { createScratchDatabase, fillPostgres, postgresAnswers } from './fill.ts';
import { drain, type LoadResult, runLoad } from './load.ts';
import { MemorySampler, toMB } from './processes.ts';
import { machine, num, statusOf } from './report.ts';
import { scenarios, serverEnv, signInAll } from './scenarios.ts';
import { REPO_ROOT, startServer } from './server.ts';
import { ADMIN_URL, CONNECTIONS, cleanUp, cleanups, KEEP, log, REFORMS, runMain, SECONDS, seconds } from './settings.ts';

const BEFORE = process.env.BENCH_BEFORE ?? 'HEAD~1';
const AFTER = process.env.BENCH_AFTER ?? 'HEAD';
const PAIRS = Number(process.env.BENCH_PAIRS ?? 2);
if (!Number.isInteger(PAIRS) || PAIRS <= 0) throw new Error('BENCH_PAIRS must be a positive integer');

process.once('SIGINT', () => {
  console.error('\ninterrupted: cleaning up');
  void cleanUp().then(() => process.exit(130));
});

interface Side {
  label: string;
  sha: string;
  dir: string;
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${result.status}`);
  return result.stdout.trim();
}

function inherit(command: string, args: string[], cwd: string): void {
  // npm's own output goes to stderr, so that the run's figures on stdout stay readable.
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', process.stderr, process.stderr] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${result.status}`);
}

/** A detached worktree of `revision` under os.tmpdir(), its dependencies installed and built. */
function prepare(label: string, revision: string): Side {
  const sha = run('git', ['rev-parse', '--verify', `${revision}^{commit}`], REPO_ROOT);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `reformes-paired-${sha.slice(0, 7)}-`));
  fs.rmdirSync(dir);
  const t0 = Date.now();
  run('git', ['worktree', 'add', '--detach', dir, sha], REPO_ROOT);
  if (!KEEP) {
    cleanups.push(async () => {
      run('git', ['worktree', 'remove', '--force', dir], REPO_ROOT);
      log(`worktree ${dir} removed`);
    });
  }
  inherit('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], dir);
  inherit('npm', ['run', 'build'], dir);
  log(`  ${label} ${sha.slice(0, 7)} (${revision}): worktree ${dir}, npm ci + build ${seconds(t0)}`);
  return { label, sha, dir };
}

interface Run {
  side: Side;
  pair: number;
  results: Map<string, LoadResult>;
  rssWarm: number;
  hwm: number;
}

const NAMES = ['health', 'deepPage', 'searchDeep', 'publicList', 'publicSearch', 'publicRandom', 'portfolio'] as const;

async function measure(side: Side, pair: number, env: NodeJS.ProcessEnv, logDir: string, parameters: BenchParameters): Promise<Run> {
  log(`\n--- pair ${pair}, ${side.label} ${side.sha.slice(0, 7)} ---`);
  const server = await startServer(env, path.join(logDir, `${side.label}-${pair}.log`), 240_000, side.dir);
  cleanups.push(() => server.stop());
  try {
    const sampler = new MemorySampler(server.serverPid).start();
    const all = scenarios(parameters, await signInAll(server.baseUrl));
    // Warm-up (JIT, connection pool, kept pages' statements), not recorded: as run.ts, plus a few seconds of each
    // paged route so that neither side is measured cold.
    await runLoad(server.baseUrl, { ...all.health, seconds: 2 });
    for (const name of NAMES.slice(1)) await runLoad(server.baseUrl, { ...all[name], seconds: 1 });
    await drain(server.baseUrl);
    const rssWarm = (await sampler.settle()).byKind.server;
    const results = new Map<string, LoadResult>();
    for (const name of NAMES) {
      const result = await runLoad(server.baseUrl, all[name]);
      await drain(server.baseUrl);
      results.set(name, result);
      const status = statusOf(result);
      log(`  ${result.name}: ${num(result.reqPerSec)} req/s, p99 ${num(result.p99)} ms${status.ok ? '' : ` FAIL ${status.text}`}`);
    }
    sampler.stop();
    const hwm = sampler.seen().find((p) => p.pid === server.serverPid)?.hwm ?? 0;
    return { side, pair, results, rssWarm, hwm };
  } finally {
    await server.stop();
  }
}

function table(runs: Run[], parameters: BenchParameters): string[] {
  const labels: Record<(typeof NAMES)[number], string> = {
    health: '1. liveness',
    deepPage: `2. list, random page 1..${Math.ceil(parameters.totalReformes / 10)}`,
    searchDeep: '4b. search, deep page',
    publicList: '5a. public list, page 1',
    publicSearch: '5b. public search, page 1',
    publicRandom: `5c. public, random page 1..${Math.ceil(parameters.publishedTotal / 10)}`,
    portfolio: `9a. portfolio, random page 1..${Math.ceil(parameters.portfolioTotal / 10)}`,
  };
  const heads = runs.map((r) => `${r.side.label} ${r.side.sha.slice(0, 7)} run ${r.pair}`);
  const lines = [`| req/s (x liveness), p99 | ${heads.join(' | ')} |`, `|---|${runs.map(() => '---:').join('|')}|`];
  for (const name of NAMES) {
    const cells = runs.map((r) => {
      const result = r.results.get(name) as LoadResult;
      const health = r.results.get('health') as LoadResult;
      const ratio = name === 'health' ? '' : ` (${num(result.reqPerSec / health.reqPerSec, 3)})`;
      return `${num(result.reqPerSec, 0)}${ratio}, ${num(result.p99)} ms`;
    });
    lines.push(`| ${labels[name]} | ${cells.join(' | ')} |`);
  }
  lines.push(`| server RSS after warm-up / VmHWM, MB | ${runs.map((r) => `${num(toMB(r.rssWarm))} / ${num(toMB(r.hwm))}`).join(' | ')} |`);
  return lines;
}

async function main() {
  const t0 = Date.now();
  const { version, error } = await postgresAnswers();
  if (!version) throw new Error(`PostgreSQL does not answer at ${ADMIN_URL.replace(/:[^:@/]*@/, ':***@')}: ${error}`);
  const header = [
    ...machine(),
    `PostgreSQL ${version}`,
    `BENCH_BEFORE=${BEFORE} BENCH_AFTER=${AFTER} BENCH_PAIRS=${PAIRS} BENCH_REFORMS=${REFORMS} BENCH_SECONDS=${SECONDS} BENCH_CONNECTIONS=${CONNECTIONS}`,
  ];
  for (const line of header) log(line);

  const before = prepare('before', BEFORE);
  const after = prepare('after', AFTER);

  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-paired-logs-'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-paired-data-'));
  if (!KEEP) {
    cleanups.push(async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(logDir, { recursive: true, force: true });
    });
  }
  const url = await createScratchDatabase();
  if (KEEP) cleanups.pop(); // the drop: BENCH_KEEP=1 keeps the database
  const env = serverEnv(dataDir, url);

  // Each side's first start migrates (and the first one seeds the demo data): the older first, so that the newer
  // side's migrations, if any, come last and both servers then run on the same schema.
  let t = Date.now();
  for (const side of [before, after]) {
    const first = await startServer(env, path.join(logDir, `${side.label}-first.log`), 240_000, side.dir);
    await first.stop();
  }
  log(`  first starts (migrations, seed) ${seconds(t)}`);
  t = Date.now();
  const { counts, parameters } = await fillPostgres(url);
  log(`  data ready in ${seconds(t)}: ${JSON.stringify(counts)}`);
  log(`  parameters: ${JSON.stringify(parameters)}`);

  const runs: Run[] = [];
  for (let pair = 1; pair <= PAIRS; pair++) {
    for (const side of [before, after]) runs.push(await measure(side, pair, env, logDir, parameters));
  }

  log('\n================ paired results ================');
  for (const line of header) log(line);
  log(
    `load average at the end ${os
      .loadavg()
      .map((v) => num(v, 2))
      .join(' ')}; ${new Date().toISOString()}; total ${seconds(t0)}`,
  );
  log('');
  for (const line of table(runs, parameters)) log(line);
  const failed = runs.some((r) => [...r.results.values()].some((result) => !statusOf(result).ok));
  if (failed) {
    console.error('\nFAILED: non-2xx answers or errors (see above)');
    process.exitCode = 1;
  }
  if (KEEP) log(`kept: database ${url.replace(/:[^:@/]*@/, ':***@')}, worktrees ${before.dir} ${after.dir}, logs ${logDir}`);
}

await runMain(main);
