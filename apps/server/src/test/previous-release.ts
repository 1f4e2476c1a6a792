import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The previous release's compiled server, built from git, for the upgrade test (modules/health/upgrade.test.ts):
 * what an operator runs before replacing it by this one.
 */

/**
 * The release the upgrade test starts from: the last commit before issue 42, whose migration 0019 came with 1.0.0.
 * Move it at each release (CHANGELOG.md lists them): once a release is out, its tag's commit becomes the previous
 * release of the next one.
 */
export const PREVIOUS_RELEASE = '3c329d05586550f8f1c27a1ec876cf329198ccad';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** Written once the worktree is installed and built: a folder without it is an interrupted preparation. */
const READY_MARK = '.reformes-previous-release-ready';

/** Without the npm_* variables of an `npm run` above this test: the worktree's npm reads its own folder only. */
const childEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));

async function run(command: string, args: string[], cwd: string): Promise<void> {
  try {
    await promisify(execFile)(command, args, { cwd, env: childEnv(), maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} (in ${cwd}) failed: ${(error as Error).message}\n${stderr}${stdout}`);
  }
}

function removeWorktree(dir: string): void {
  spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: REPO_ROOT, stdio: 'ignore' });
  fs.rmSync(dir, { recursive: true, force: true });
  spawnSync('git', ['worktree', 'prune'], { cwd: REPO_ROOT, stdio: 'ignore' });
}

export interface PreviousRelease {
  sha: string;
  /** The worktree's apps/server/dist/main.js. */
  main: string;
  /** How long the preparation took (0 ms when the cache had it). */
  preparedMs: number;
}

/**
 * A detached `git worktree` of `revision` under os.tmpdir(), its dependencies installed (`npm ci`, without the
 * packages' install scripts: the native ones ship prebuilt binaries) and its server compiled. It stays there,
 * keyed by the commit, so that the next run starts at once; a preparation that fails is removed.
 */
export async function previousRelease(revision = PREVIOUS_RELEASE): Promise<PreviousRelease> {
  const lookUp = () => spawnSync('git', ['rev-parse', '--verify', '--quiet', `${revision}^{commit}`], { cwd: REPO_ROOT, encoding: 'utf8' });
  let found = lookUp();
  if (found.status !== 0) {
    // A shallow clone (CI's, perhaps): ask its origin for that one commit before giving up.
    spawnSync('git', ['fetch', '--quiet', '--depth=1', 'origin', revision], { cwd: REPO_ROOT, stdio: 'ignore', timeout: 120_000 });
    found = lookUp();
  }
  if (found.status !== 0) {
    throw new Error(
      `The previous release ${revision} is not in this clone (a shallow clone?): fetch it with ` +
        `« git fetch --unshallow » or « git fetch origin ${revision} », then run the test again.`,
    );
  }
  const sha = found.stdout.trim();
  const dir = path.join(os.tmpdir(), `reformes-previous-${sha}`);
  const main = path.join(dir, 'apps', 'server', 'dist', 'main.js');
  if (fs.existsSync(path.join(dir, READY_MARK)) && fs.existsSync(main)) return { sha, main, preparedMs: 0 };

  const startedAt = Date.now();
  // A folder of this run's own, moved into place at the end: two runs at once do not build into one folder.
  const staging = `${dir}-${process.pid}`;
  removeWorktree(staging);
  try {
    await run('git', ['worktree', 'add', '--detach', staging, sha], REPO_ROOT);
    await run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts', '--prefer-offline'], staging);
    await run('npm', ['run', 'build', '-w', 'apps/server'], staging);
    fs.writeFileSync(path.join(staging, READY_MARK), `${sha}\n`);
    if (!fs.existsSync(path.join(dir, READY_MARK))) {
      removeWorktree(dir);
      await run('git', ['worktree', 'move', staging, dir], REPO_ROOT);
    }
  } finally {
    removeWorktree(staging);
  }
  return { sha, main, preparedMs: Date.now() - startedAt };
}
