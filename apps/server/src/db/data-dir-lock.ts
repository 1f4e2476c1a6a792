import fs from 'node:fs';
import path from 'node:path';

/** Alive and not a zombie (an exited process not reaped yet holds nothing); one owned by another account counts. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** An exited process whose parent died stays a zombie until init reaps it, which some inits do late: it holds nothing. */
export function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false;
  }
}

interface LockOwner {
  pid: number;
  childPid?: number;
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockPath, 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

export class DataDirLockedError extends Error {}

/** The postmaster a killed server left behind, if that pid is still one on `dataDir` (pids get reused). */
function isOrphanedCluster(pid: number, dataDir: string): boolean {
  if (process.platform !== 'linux') return true;
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(dataDir);
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}

/**
 * One server per embedded database: this file lock makes a second instance refuse to start with a clear message
 * (PostgreSQL's own postmaster.pid would only say so in English, and after the app had started). A lock whose
 * server is gone is stale and taken over; when that server was killed (kill -9) its PostgreSQL outlives it: that
 * orphan is stopped (fast shutdown, nothing acknowledged is lost) before the new start.
 */
export async function acquireDataDirLock(dataDir: string, waitMs = 30_000) {
  const lockPath = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.lock`);
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  for (;;) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify({ pid: process.pid } satisfies LockOwner), { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(lockPath);
      if (owner && isAlive(owner.pid)) {
        throw new DataDirLockedError(
          `La base embarquée ${dataDir} est déjà utilisée par un autre serveur Réformes (processus ${owner.pid}). ` +
            'Arrêtez-le avant de démarrer celui-ci, ou utilisez un autre DATA_DIR.',
        );
      }
      const orphan = owner?.childPid;
      if (orphan && isAlive(orphan) && isOrphanedCluster(orphan, dataDir)) {
        process.kill(orphan, 'SIGINT');
        if (!(await waitForExit(orphan, waitMs))) {
          throw new DataDirLockedError(
            `La base embarquée ${dataDir} est encore ouverte par le processus ${orphan}. Arrêtez-le puis recommencez.`,
          );
        }
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  return {
    recordChild(childPid: number) {
      fs.writeFileSync(lockPath, JSON.stringify({ pid: process.pid, childPid } satisfies LockOwner));
    },
    release() {
      const owner = readOwner(lockPath);
      if (owner?.pid === process.pid) fs.rmSync(lockPath, { force: true });
    },
  };
}
