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

/**
 * Who a process is beyond its pid, which the kernel reuses: its account, its start time (clock ticks since boot,
 * /proc/<pid>/stat field 22) and the boot it started in.
 */
interface Identity {
  uid: number;
  start: string;
  boot: string;
}

function identityOf(pid: number): Identity | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces and parentheses): state is field 3, starttime field 22.
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const uid = fs.statSync(`/proc/${pid}`).uid;
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return start ? { uid, start, boot } : undefined;
  } catch {
    return undefined;
  }
}

interface LockOwner {
  pid: number;
  childPid?: number;
  childUid?: number;
  childStart?: string;
  childBoot?: string;
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    // Not through a link: the lock is a file this server creates (O_EXCL), never one another account put there.
    const fd = fs.openSync(lockPath, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      return JSON.parse(fs.readFileSync(fd, 'utf8')) as LockOwner;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

export class DataDirLockedError extends Error {}

/**
 * The postmaster a killed server left behind, if that pid is still the very process it recorded: same account, same
 * start time in the same boot (pids get reused), on `dataDir`. Anything else is left alone, never signalled.
 */
function isOrphanedCluster(owner: LockOwner, dataDir: string): boolean {
  const pid = owner.childPid;
  if (!pid || process.platform !== 'linux') return false;
  const now = identityOf(pid);
  if (!now || now.uid !== owner.childUid || now.start !== owner.childStart || now.boot !== owner.childBoot) return false;
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
  let fd: number;
  for (;;) {
    try {
      // Created here (O_EXCL: never an existing file or link), and written later through this descriptor only.
      const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
      fd = fs.openSync(lockPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
      fs.writeSync(fd, JSON.stringify({ pid: process.pid } satisfies LockOwner));
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
      if (owner && orphan && isAlive(orphan) && isOrphanedCluster(owner, dataDir)) {
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
  let released = false;
  return {
    recordChild(childPid: number) {
      const child = identityOf(childPid);
      const owner: LockOwner = { pid: process.pid, childPid, childUid: child?.uid, childStart: child?.start, childBoot: child?.boot };
      fs.ftruncateSync(fd, 0);
      fs.writeSync(fd, JSON.stringify(owner), 0);
    },
    release() {
      if (released) return;
      released = true;
      fs.closeSync(fd);
      const owner = readOwner(lockPath);
      if (owner?.pid === process.pid) fs.rmSync(lockPath, { force: true });
    },
  };
}
