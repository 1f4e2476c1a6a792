/**
 * Lighthouse on the built app (issue 20): the public list and the login screen, mobile (simulated slow 4G,
 * Lighthouse's defaults) and desktop, each run three times in a fresh headless Chromium; prints the median
 * run's figures as a table. The server is started the operator's way (`npm run serve`, embedded database,
 * demo data) on a free loopback port. See docs/performance.md.
 *
 *   npm run lighthouse                               # builds, then measures
 *   LIGHTHOUSE_RUNS=5 LIGHTHOUSE_PRESETS=mobile npm run lighthouse
 *   LIGHTHOUSE_URL=http://127.0.0.1:3000 npm run lighthouse   # measure a server that already runs
 *
 * The JSON report of every run is kept in .tmp/lighthouse/ for a closer look.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Config, type Flags } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { REPO_ROOT, type ServerHandle, startServer } from './server.ts';

type Result = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
type Preset = 'mobile' | 'desktop';

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

const configs: Record<Preset, Config | undefined> = { mobile: undefined, desktop: desktopConfig };

/** One run; Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP): such a run is made again, twice at most. */
async function measure(url: string, preset: Preset, attempt = 1): Promise<Result> {
  try {
    return await measureOnce(url, preset);
  } catch (error) {
    if (attempt >= 3) throw error;
    console.log(`  ${(error as Error).message}: once more`);
    return measure(url, preset, attempt + 1);
  }
}

async function measureOnce(url: string, preset: Preset): Promise<Result> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROME_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error' };
    const runner = await lighthouse(url, flags, configs[preset]);
    if (!runner) throw new Error(`Lighthouse returned nothing for ${url}`);
    if (runner.lhr.runtimeError) throw new Error(`${url}: ${runner.lhr.runtimeError.code} ${runner.lhr.runtimeError.message}`);
    return runner.lhr;
  } finally {
    chrome.kill();
  }
}

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

function row(page: string, lhr: Result): string {
  return [
    page,
    score(lhr, 'performance'),
    sec(numeric(lhr, 'largest-contentful-paint')),
    sec(numeric(lhr, 'first-contentful-paint')),
    `${Math.round(numeric(lhr, 'total-blocking-time'))} ms`,
    numeric(lhr, 'cumulative-layout-shift').toFixed(3),
    kib(numeric(lhr, 'total-byte-weight')),
    kib(scriptBytes(lhr)),
    score(lhr, 'accessibility'),
    score(lhr, 'best-practices'),
    score(lhr, 'seo'),
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
    console.log(`Lighthouse ${RUNS} runs per page and preset on ${baseUrl} (Chromium ${CHROME_PATH})`);
    for (const preset of PRESETS) {
      const medians: Array<[string, Result]> = [];
      for (const page of PAGES) {
        const runs: Result[] = [];
        for (let run = 1; run <= RUNS; run++) {
          const lhr = await measure(`${baseUrl}${page}`, preset);
          runs.push(lhr);
          const file = `${preset}${page.replaceAll('/', '-')}-${run}.json`;
          fs.writeFileSync(path.join(REPORT_DIR, file), JSON.stringify(lhr));
          console.log(`  ${preset} ${page} run ${run}: performance ${score(lhr, 'performance')}`);
        }
        medians.push([page, computeMedianRun(runs)]);
      }
      console.log(`\n${preset} (median of ${RUNS} runs)\n`);
      console.log('| page | performance | LCP | FCP | TBT | CLS | transferred | of which JS | accessibility | best practices | SEO |');
      console.log('|---|---|---|---|---|---|---|---|---|---|---|');
      for (const [page, lhr] of medians) console.log(`| ${row(page, lhr)} |`);
      for (const [page, lhr] of medians) {
        for (const line of shortcomings(lhr)) console.log(`  ${page}: ${line}`);
      }
      console.log('');
    }
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
