/**
 * Lighthouse on the built app (issues 20, 34): the public list and the login screen, mobile (Lighthouse's default:
 * simulated slow 4G, 4x CPU slowdown) and desktop (`--preset=desktop`), each run three times by the Lighthouse CLI
 * itself (`lighthouse <url> --chrome-flags="--headless=new --no-sandbox"`, its own fresh Chromium each time), as
 * anyone checking the figures would run it. Prints, per page, the median of the runs' scores and of each metric,
 * TBT and TTI beside the score, and every run's score. The server is started the operator's way (`npm run serve`,
 * embedded database, demo data) on a free loopback port. See docs/performance.md.
 *
 *   npm run lighthouse                               # builds, then measures
 *   LIGHTHOUSE_RUNS=5 LIGHTHOUSE_PRESETS=mobile npm run lighthouse
 *   LIGHTHOUSE_URL=http://127.0.0.1:3000 npm run lighthouse   # measure a server that already runs
 *
 * The JSON report of every run is kept in .tmp/lighthouse/ for a closer look.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type lighthouse from 'lighthouse';
import { REPO_ROOT, type ServerHandle, startServer } from './server.ts';

type Result = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
type Preset = 'mobile' | 'desktop';
const run = promisify(execFile);
const LIGHTHOUSE_CLI = path.join(REPO_ROOT, 'node_modules/lighthouse/cli/index.js');

const PAGES = ['/accueil', '/auth/login'];
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const PRESETS = (process.env.LIGHTHOUSE_PRESETS ?? 'mobile,desktop').split(',').map((preset) => preset.trim()) as Preset[];
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const REPORT_DIR = path.join(REPO_ROOT, '.tmp', 'lighthouse');

if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('LIGHTHOUSE_RUNS must be a positive integer');
for (const preset of PRESETS) {
  if (preset !== 'mobile' && preset !== 'desktop') throw new Error(`LIGHTHOUSE_PRESETS: mobile or desktop, not ${preset}`);
}
if (!fs.existsSync(CHROME_PATH)) throw new Error(`Chromium is missing (${CHROME_PATH}): apt-get install -y chromium, or set CHROME_PATH`);

/**
 * The CLI's own flags, nothing else: an earlier version of this bench called Lighthouse's node API with its own
 * Chromium flags (`--disable-gpu`, `--disable-dev-shm-usage`) and printed `computeMedianRun`, the run nearest the
 * median FCP and TTI rather than the median score; docs/performance.md ("Issue 34") tells what that hid.
 */
const presetFlags: Record<Preset, string[]> = { mobile: [], desktop: ['--preset=desktop'] };

/** One run; Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP): such a run is made again, twice at most. */
async function measure(url: string, preset: Preset, file: string, attempt = 1): Promise<Result> {
  try {
    return await measureOnce(url, preset, file);
  } catch (error) {
    if (attempt >= 3) throw error;
    console.log(`  ${(error as Error).message.split('\n')[0]}: once more`);
    return measure(url, preset, file, attempt + 1);
  }
}

async function measureOnce(url: string, preset: Preset, file: string): Promise<Result> {
  await run(
    process.execPath,
    [
      LIGHTHOUSE_CLI,
      url,
      '--chrome-flags=--headless=new --no-sandbox',
      '--output=json',
      `--output-path=${file}`,
      '--quiet',
      ...presetFlags[preset],
    ],
    { env: { ...process.env, CHROME_PATH }, maxBuffer: 64 * 1024 * 1024 },
  );
  const lhr = JSON.parse(fs.readFileSync(file, 'utf8')) as Result;
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return lhr;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
const numeric = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const kib = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('fr-FR')} KiB`;

interface NetworkItem {
  resourceType?: string;
  transferSize?: number;
}

/** Compressed bytes of the scripts the page downloaded while it loaded. */
function scriptBytes(lhr: Result): number {
  const details = lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined;
  return (details?.items ?? []).filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

/** What keeps a category under 100, for the median run. */
function shortcomings(lhr: Result): string[] {
  const lines: string[] = [];
  for (const [id, category] of Object.entries(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
      if (id === 'performance' && ref.group !== 'metrics') continue;
      lines.push(`${id}: ${audit.title} (${audit.displayValue ?? Math.round((audit.score ?? 0) * 100)})`);
    }
  }
  return lines;
}

/** The median over the runs of each figure (scores and metrics apart), then every run's performance score. */
function row(page: string, runs: Result[]): string {
  const of = (value: (lhr: Result) => number) => median(runs.map(value));
  return [
    page,
    of((lhr) => score(lhr, 'performance')),
    `${Math.round(of((lhr) => numeric(lhr, 'total-blocking-time')))} ms`,
    sec(of((lhr) => numeric(lhr, 'interactive'))),
    sec(of((lhr) => numeric(lhr, 'largest-contentful-paint'))),
    sec(of((lhr) => numeric(lhr, 'first-contentful-paint'))),
    of((lhr) => numeric(lhr, 'cumulative-layout-shift')).toFixed(3),
    kib(of((lhr) => numeric(lhr, 'total-byte-weight'))),
    kib(of(scriptBytes)),
    of((lhr) => score(lhr, 'accessibility')),
    of((lhr) => score(lhr, 'best-practices')),
    of((lhr) => score(lhr, 'seo')),
    runs.map((lhr) => score(lhr, 'performance')).join(', '),
  ].join(' | ');
}

async function main() {
  let server: ServerHandle | undefined;
  let baseUrl = process.env.LIGHTHOUSE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-lighthouse-'));
  try {
    if (!baseUrl) {
      if (!fs.existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'))) throw new Error('apps/web/dist is missing: npm run build');
      server = await startServer(
        { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: 'true', DATABASE_URL: undefined },
        path.join(dataDir, 'server.log'),
      );
      baseUrl = server.baseUrl;
    }
    fs.mkdirSync(REPORT_DIR, { recursive: true });
    const load = os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
    console.log(`Lighthouse CLI, ${RUNS} runs per page and preset on ${baseUrl} (Chromium ${CHROME_PATH}); load average ${load}`);
    for (const preset of PRESETS) {
      const measured: Array<[string, Result[]]> = [];
      for (const page of PAGES) {
        const runs: Result[] = [];
        for (let index = 1; index <= RUNS; index++) {
          const file = path.join(REPORT_DIR, `${preset}${page.replaceAll('/', '-')}-${index}.json`);
          const lhr = await measure(`${baseUrl}${page}`, preset, file);
          runs.push(lhr);
          console.log(
            `  ${preset} ${page} run ${index}: performance ${score(lhr, 'performance')}, TBT ${Math.round(numeric(lhr, 'total-blocking-time'))} ms, TTI ${sec(numeric(lhr, 'interactive'))}`,
          );
        }
        measured.push([page, runs]);
      }
      console.log(`\n${preset} (median of ${RUNS} runs, figure by figure)\n`);
      console.log(
        '| page | performance | TBT | TTI | LCP | FCP | CLS | transferred | of which JS | accessibility | best practices | SEO | runs |',
      );
      console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
      for (const [page, runs] of measured) console.log(`| ${row(page, runs)} |`);
      for (const [page, runs] of measured) {
        for (const line of new Set(runs.flatMap(shortcomings))) console.log(`  ${page}: ${line}`);
      }
      console.log(
        `load average after: ${os
          .loadavg()
          .map((value) => value.toFixed(1))
          .join(' ')}\n`,
      );
    }
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
