import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, isAlive } from './data-dir-lock.ts';

/** The lock beside DATA_DIR: written only through the file it created, and a process it names is stopped only if it is still that one. */
describe('data-directory lock', { timeout: 20_000 }, () => {
  let root: string;
  let dataDir: string;
  let lockPath: string;
  const children: ChildProcess[] = [];

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-lock-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  function freshDataDir() {
    dataDir = path.join(fs.mkdtempSync(path.join(root, 'data-')), 'postgres');
    lockPath = `${dataDir}.lock`;
  }

  /** A process whose command line names the data folder, as an orphan postmaster's does. */
  async function fakePostmaster(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', dataDir], { stdio: 'ignore' });
    children.push(child);
    await new Promise((resolve) => child.once('spawn', resolve));
    return child;
  }

  const deadPid = () => spawnSync('true').pid as number;

  /** The lock as a killed server leaves it: its own pid gone, its postmaster's recorded. */
  function leaveStale(changes: Record<string, unknown> = {}) {
    const owner = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
    fs.writeFileSync(lockPath, JSON.stringify({ ...owner, pid: deadPid(), ...changes }));
  }

  it('records the postmaster through the file it created, not through a link put in its place', async () => {
    freshDataDir();
    const lock = await acquireDataDirLock(dataDir, 0);
    const target = path.join(root, 'cible');
    fs.writeFileSync(target, 'original');
    fs.rmSync(lockPath);
    fs.symlinkSync(target, lockPath);
    lock.recordChild(process.pid);
    expect(fs.readFileSync(target, 'utf8')).toBe('original');
    lock.release();
  });

  it('stops the orphan postmaster it recorded (same pid, account and start time)', async () => {
    freshDataDir();
    const postmaster = await fakePostmaster();
    const lock = await acquireDataDirLock(dataDir, 0);
    lock.recordChild(postmaster.pid as number);
    leaveStale();
    const exited = new Promise((resolve) => postmaster.once('exit', resolve));
    (await acquireDataDirLock(dataDir, 5_000)).release();
    await exited;
    expect(isAlive(postmaster.pid as number)).toBe(false);
  });

  it.each([
    ['another start time', { childStart: '1' }],
    ['another account', { childUid: 4242 }],
    ['no start time recorded', { childStart: undefined, childUid: undefined }],
  ])('does not signal a live process on the recorded pid with %s', async (_what, changes) => {
    freshDataDir();
    const postmaster = await fakePostmaster();
    const lock = await acquireDataDirLock(dataDir, 0);
    lock.recordChild(postmaster.pid as number);
    leaveStale(changes);
    (await acquireDataDirLock(dataDir, 1_000)).release();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isAlive(postmaster.pid as number)).toBe(true);
  });
});
