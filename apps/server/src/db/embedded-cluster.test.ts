import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_OS_USER, type EmbeddedCluster, startEmbeddedCluster } from './embedded-cluster.ts';

/** The embedded cluster itself, as the server starts it: durable, private, reachable by the app alone. */
describe('embedded PostgreSQL cluster', { timeout: 60_000 }, () => {
  let root: string;
  let dataDir: string;
  let cluster: EmbeddedCluster;
  const lines: string[] = [];

  async function show(setting: string, connection: pg.ClientConfig = cluster.connection): Promise<string> {
    const client = new pg.Client({ ...connection, database: 'postgres' });
    await client.connect();
    try {
      const { rows } = await client.query<Record<string, string>>(`show ${setting}`);
      return Object.values(rows[0])[0];
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-cluster-'));
    dataDir = path.join(root, 'postgres');
    cluster = await startEmbeddedCluster(dataDir, { maxConnections: 8, onLog: (line) => lines.push(line) });
  });

  afterAll(async () => {
    await cluster?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('flushes every commit to disk: fsync, synchronous_commit and full_page_writes on, data checksums on', async () => {
    expect(await show('fsync')).toBe('on');
    expect(await show('synchronous_commit')).toBe('on');
    expect(await show('full_page_writes')).toBe('on');
    expect(await show('data_checksums')).toBe('on');
    expect(await show('server_version')).toMatch(/^18\./);
  });

  it('listens on no TCP port, only on a socket in a folder its own account alone may open', async () => {
    expect(await show('listen_addresses')).toBe('');
    expect(cluster.connection.host).toBe(`${dataDir}.run`);
    expect(fs.statSync(`${dataDir}.run`).mode & 0o777).toBe(0o700);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(`${dataDir}.password`).mode & 0o777).toBe(0o600);
    if (process.getuid?.() === 0) {
      // PostgreSQL refuses root: its files belong to the dedicated account.
      const owner = fs.statSync(path.join(dataDir, 'PG_VERSION')).uid;
      expect(owner).not.toBe(0);
      expect(fs.readFileSync('/etc/passwd', 'utf8')).toContain(`${CLUSTER_OS_USER}:x:${owner}:`);
    }
  });

  it('asks for the generated password, even on its socket', async () => {
    await expect(show('port', { ...cluster.connection, password: 'pas-le-bon' })).rejects.toThrow(/password authentication failed/);
    expect(fs.readFileSync(`${dataDir}.password`, 'utf8').trim()).toBe(cluster.connection.password);
    expect(cluster.connection.password.length).toBeGreaterThanOrEqual(32);
  });

  it('stops with a checkpoint and starts again on the same folder with the same data', async () => {
    const client = new pg.Client({ ...cluster.connection, database: 'postgres' });
    await client.connect();
    await client.query('create table gardé (valeur text)');
    await client.query("insert into gardé values ('présent')");
    await client.end();
    await cluster.stop();
    expect(fs.existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);
    expect(lines.join('\n')).toContain('database system is shut down');

    cluster = await startEmbeddedCluster(dataDir, { maxConnections: 8, onLog: (line) => lines.push(line) });
    const again = new pg.Client({ ...cluster.connection, database: 'postgres' });
    await again.connect();
    expect((await again.query('select valeur from gardé')).rows).toEqual([{ valeur: 'présent' }]);
    await again.end();
  });

  it('refuses, in French, a folder that holds something else than a cluster', async () => {
    const other = path.join(root, 'autre');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'notes.txt'), 'rien à voir');
    await expect(startEmbeddedCluster(other, { onLog: () => undefined })).rejects.toThrow(
      `Le dossier ${other} n'est pas vide et ne contient pas de base PostgreSQL`,
    );
  });
});

/**
 * As root, the server creates and hands over folders and files beside DATA_DIR: a link planted there by another
 * account must not make it chmod, chown or write what the link points to.
 */
describe('embedded cluster: root follows no link it did not create', { timeout: 60_000 }, () => {
  let root: string;
  let target: string;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-links-'));
    // The cluster's account must cross it, as it crosses the folders above an operator's DATA_DIR.
    fs.chmodSync(root, 0o755);
    target = path.join(root, 'cible');
    fs.mkdirSync(target, { mode: 0o755 });
    fs.chmodSync(target, 0o755);
    fs.writeFileSync(path.join(target, 'fichier'), 'original', { mode: 0o644 });
  });

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  /** The refusal's message, or 'démarrée' (then stopped) when the cluster started anyway. */
  async function outcomeOf(dataDir: string): Promise<string> {
    return startEmbeddedCluster(dataDir, { onLog: () => undefined }).then(
      async (cluster) => {
        await cluster.stop();
        return 'démarrée';
      },
      (error: Error) => error.message,
    );
  }

  function expectTargetUntouched() {
    const stat = fs.statSync(target);
    expect(stat.mode & 0o777).toBe(0o755);
    expect(stat.uid).toBe(process.getuid?.());
    expect(fs.readFileSync(path.join(target, 'fichier'), 'utf8')).toBe('original');
    expect(fs.statSync(path.join(target, 'fichier')).mode & 0o777).toBe(0o644);
  }

  it('refuses, in French, a DATA_DIR too long for its socket, and uses no shared temporary folder', async () => {
    const dataDir = path.join(root, 'd'.repeat(90), 'postgres');
    // Where the socket folder used to fall back: a name anyone could predict and plant.
    const fallback = path.join(os.tmpdir(), `reformes-pg-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`);
    fs.rmSync(fallback, { force: true });
    fs.symlinkSync(target, fallback);
    try {
      expect(await outcomeOf(dataDir)).toMatch(/^Le chemin .* est trop long pour le socket de la base embarquée/);
      expectTargetUntouched();
      expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(false);
    } finally {
      fs.rmSync(fallback, { force: true });
    }
  });

  it.each([
    ['the data folder', (dataDir: string) => dataDir, () => target],
    ['the socket folder', (dataDir: string) => `${dataDir}.run`, () => target],
    ['the password file', (dataDir: string) => `${dataDir}.password`, () => path.join(target, 'fichier')],
  ])('refuses a symbolic link planted as %s, and leaves its target as it was', async (_what, planted, pointee) => {
    const dataDir = path.join(fs.mkdtempSync(path.join(root, 'data-')), 'postgres');
    fs.symlinkSync(pointee(), planted(dataDir));
    expect(await outcomeOf(dataDir)).toMatch(new RegExp(`^${planted(dataDir)} est un lien symbolique`));
    expectTargetUntouched();
    expect(fs.lstatSync(planted(dataDir)).isSymbolicLink()).toBe(true);
  });

  it('refuses a socket folder that another account owns', async () => {
    const dataDir = path.join(fs.mkdtempSync(path.join(root, 'data-')), 'postgres');
    fs.mkdirSync(`${dataDir}.run`, { mode: 0o755 });
    fs.chownSync(`${dataDir}.run`, 65534, 65534);
    expect(await outcomeOf(dataDir)).toMatch(new RegExp(`^${dataDir}.run appartient à un autre compte`));
    expect(fs.statSync(`${dataDir}.run`).uid).toBe(65534);
  });
});
