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
