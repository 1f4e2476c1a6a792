import fs from 'node:fs';
import path from 'node:path';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** An exited process whose parent died stays a zombie until init reaps it, which some inits do late: it holds nothing. */
function isZombie(pid: number): boolean {
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

/**
 * PGlite does not lock its data directory, and a second process on it corrupts it:
 * this file lock makes a second instance refuse to start. A lock whose owner (the server
 * and its PGlite child) is gone is stale and taken over; while an orphaned child is still
 * closing the database after its parent was killed, we wait for it a little.
 */
export async function acquireDataDirLock(dataDir: string, waitMs = 10_000) {
  const lockPath = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.lock`);
  fs.mkdirSync(path.dirname(lockPath), { recursive: true });
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify({ pid: process.pid } satisfies LockOwner), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = readOwner(lockPath);
      const serverAlive = owner ? isAlive(owner.pid) : false;
      const childAlive = owner?.childPid ? isAlive(owner.childPid) : false;
      if (serverAlive) {
        throw new DataDirLockedError(
          `La base embarquée ${dataDir} est déjà utilisée par un autre serveur Réformes (processus ${owner?.pid}). ` +
            'Arrêtez-le avant de démarrer celui-ci, ou utilisez un autre DATA_DIR.',
        );
      }
      if (childAlive && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      if (childAlive) {
        throw new DataDirLockedError(
          `La base embarquée ${dataDir} est encore ouverte par le processus ${owner?.childPid}. Arrêtez-le puis recommencez.`,
        );
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
