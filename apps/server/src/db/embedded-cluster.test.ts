import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type Database } from './client.ts';
import { APP_ROLE, CLUSTER_OS_USER, EMBEDDED_DATABASE, type EmbeddedCluster, startEmbeddedCluster } from './embedded-cluster.ts';
import { runMigrations } from './migrate.ts';
import { openDatabase } from './open-database.ts';

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
    // A secret of the server's own environment, which the cluster must not inherit.
    process.env.REFORMES_TEST_SECRET = 'secret-du-serveur';
    try {
      cluster = await startEmbeddedCluster(dataDir, { maxConnections: 8, onLog: (line) => lines.push(line) });
    } finally {
      delete process.env.REFORMES_TEST_SECRET;
    }
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

  it("starts PostgreSQL with a minimal environment, not the server's (its secrets are readable through SQL from /proc)", () => {
    const environment = fs.readFileSync(`/proc/${cluster.pid}/environ`, 'utf8').split('\0').filter(Boolean);
    expect(environment.join('\n')).not.toContain('secret-du-serveur');
    expect(environment.map((entry) => entry.slice(0, entry.indexOf('=')))).not.toContain('REFORMES_TEST_SECRET');
    expect(environment).toContain('LC_ALL=C');
    expect(environment.length).toBeLessThanOrEqual(6);
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

/** The app queries as a role that owns its database and nothing more: no superuser, no server files, no programs. */
describe('embedded cluster: the app connects as the owner of its database, not as a superuser', { timeout: 60_000 }, () => {
  let root: string;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-role-'));
    fs.chmodSync(root, 0o755);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const configOf = (dir: string) => ({
    databaseUrl: undefined,
    databasePoolMax: 2,
    embeddedDir: path.join(dir, 'postgres'),
    legacyPgliteDir: path.join(dir, 'db'),
  });

  async function expectPlainOwner(database: Database) {
    const { rows } = await database.pool.query(
      `select current_user as role, rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls,
              pg_has_role(current_user, 'pg_read_server_files', 'member') as reads_files,
              pg_has_role(current_user, 'pg_write_server_files', 'member') as writes_files,
              pg_has_role(current_user, 'pg_execute_server_program', 'member') as runs_programs,
              (select pg_get_userbyid(datdba) from pg_database where datname = current_database()) as owner
         from pg_roles where rolname = current_user`,
    );
    expect(rows[0]).toEqual({
      role: APP_ROLE,
      rolsuper: false,
      rolcreaterole: false,
      rolcreatedb: false,
      rolreplication: false,
      rolbypassrls: false,
      reads_files: false,
      writes_files: false,
      runs_programs: false,
      owner: APP_ROLE,
    });
    await expect(database.pool.query("copy (select 1) to program 'true'")).rejects.toThrow(
      /permission denied|superuser|pg_execute_server_program/,
    );
    await expect(database.pool.query("select pg_read_file('/proc/self/environ')")).rejects.toThrow(/permission denied/);
    expect(new URL(database.url).username).toBe(APP_ROLE);
    // Everything in its database is its own: tables, sequences, views, functions, types, schemas (drizzle's too);
    // an extension's objects (pg_trgm's) excepted.
    const { rows: foreign } = await database.pool.query(
      `select 'relation ' || c.oid::regclass::text as what from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and c.relowner <> current_user::regrole
          and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
       union all select 'function ' || p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname not in ('pg_catalog', 'information_schema') and p.proowner <> current_user::regrole
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
       union all select 'type ' || t.oid::regtype::text from pg_type t join pg_namespace n on n.oid = t.typnamespace
        where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and t.typowner <> current_user::regrole
          and not exists (select 1 from pg_depend d where d.objid = t.oid and d.deptype = 'e')
       union all select 'schema ' || nspname from pg_namespace
        where nspname not in ('pg_catalog', 'information_schema', 'pg_toast', 'public') and nspname not like 'pg_temp%'
          and nspname not like 'pg_toast_temp%' and nspowner <> current_user::regrole`,
    );
    expect(foreign).toEqual([]);
  }

  it('creates the database for its own role on a new installation, and migrates it as that role', async () => {
    const database = await openDatabase(configOf(fs.mkdtempSync(path.join(root, 'new-'))));
    try {
      await expectPlainOwner(database);
      expect((await database.pool.query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0].n).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });

  it('hands over to that role a database an earlier version created and migrated as the superuser', async () => {
    const dir = fs.mkdtempSync(path.join(root, 'old-'));
    fs.chmodSync(dir, 0o755);
    const cluster = await startEmbeddedCluster(path.join(dir, 'postgres'), { onLog: () => undefined });
    try {
      const admin = new pg.Client({ ...cluster.connection, database: 'postgres' });
      await admin.connect();
      await admin.query(`create database ${EMBEDDED_DATABASE}`);
      await admin.end();
      const old = connectPostgres(cluster.urlOf(EMBEDDED_DATABASE), { max: 1 });
      await runMigrations(old);
      await old.pool.query("create view vue_ancienne as select 1 as un; create type humeur as enum ('bonne')");
      await old.close();
    } finally {
      await cluster.stop();
    }
    const database = await openDatabase(configOf(dir));
    try {
      await expectPlainOwner(database);
    } finally {
      await database.close();
    }
    // Idempotent: a second start finds everything its own already.
    const again = await openDatabase(configOf(dir));
    await again.close();
  });
});
