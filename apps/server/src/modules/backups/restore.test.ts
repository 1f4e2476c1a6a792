import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { connectEmbedded, connectPostgres, type Database } from '../../db/client.ts';
import { runMigrations } from '../../db/migrate.ts';
import { createLegacyPgliteFixture } from '../../test/legacy-pglite-fixture.ts';
import { createScratchDatabase, dropScratchDatabase } from '../../test/scratch-database.ts';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.ts';
import { testServerUrl } from '../../test/test-database.ts';
import { writeLogicalBackup } from './backup-files.ts';

/**
 * The round trip an operator relies on: data and an attachment -> "Effectuer une sauvegarde" ->
 * `npm run restore -- <backup>` into a fresh installation -> the same rows and the same bytes. The embedded
 * database's dump (`….jsonl.gz`) goes into both kinds of installation: the embedded database, and PostgreSQL (a new
 * database on the run's server); pg_dump's (`….dump`), made when the tests run on DATABASE_URL, into PostgreSQL.
 * Slow: the restore command and every start of an embedded database take seconds on a busy machine.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const RESTORE = 'apps/server/src/cli/restore.ts';
const SLOW = 240_000;
const SERVER_URL = process.env.DATABASE_URL;
const JWT_SECRET = 'secret-de-la-restauration-de-test-0123456789';
const TABLES = ['users', 'reformes', 'objectifs', 'resultats', 'suivi_results', 'reforme_files'] as const;

const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n% Rapport d'étape de la réforme\ntrailer << /Root 1 0 R >>\n%%EOF\n",
);

type Snapshot = Record<(typeof TABLES)[number], { count: number; digest: string }>;

/** Row count and a digest of every row of each table, so "the same rows" means the same content too. */
async function snapshotOf(database: Database): Promise<Snapshot> {
  const snapshot = {} as Snapshot;
  for (const table of TABLES) {
    const { rows } = await database.pool.query<{ count: number; digest: string }>(
      `select count(*)::int as count, coalesce(md5(string_agg(t::text, '|' order by t.id)), '') as digest from ${table} t`,
    );
    snapshot[table] = rows[0];
  }
  return snapshot;
}

/** Every file under a folder, by relative path, with its bytes. */
function filesUnder(root: string): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.set(path.relative(root, full), fs.readFileSync(full));
    }
  };
  if (fs.existsSync(root)) walk(root);
  return found;
}

/** Runs `node --import tsx apps/server/src/cli/restore.ts ...args` from the repository root. */
function runRestore(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const inherited = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'STORAGE_DIR', 'BACKUP_DIR']) delete inherited[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', RESTORE, ...args], {
      cwd: REPO_ROOT,
      env: { ...inherited, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

interface Scenario {
  format: 'jsonl.gz' | 'dump';
  into: 'embedded' | 'postgresql';
}

/** pg_dump's backups exist when the app under test runs on PostgreSQL (DATABASE_URL). */
const SCENARIOS: Scenario[] = [
  { format: 'jsonl.gz', into: 'embedded' },
  { format: 'jsonl.gz', into: 'postgresql' },
  ...(SERVER_URL ? [{ format: 'dump', into: 'postgresql' } as const] : []),
];

describe('restore of a backup', () => {
  let t: TestApp;
  let source: Snapshot;
  let sourceFiles: Map<string, Buffer>;
  let attachment: { id: number; name: string };
  const backups = {} as Record<Scenario['format'], string>;
  const tmpDirs: string[] = [];
  const scratchUrls: string[] = [];

  const freshDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-restore-'));
    tmpDirs.push(dir);
    return dir;
  };
  const scratchDatabase = async () => {
    const url = await createScratchDatabase(testServerUrl(), 'reformes_restore');
    scratchUrls.push(url);
    return url;
  };

  beforeAll(async () => {
    t = await createTestApp();
    const saisie = bearer((await t.login('saisie@reformes.test')).access_token);
    const admin = bearer((await t.login('admin@reformes.test')).access_token);
    const publication = bearer((await t.login('publication@reformes.test')).access_token);

    // An attachment on a reform of saisie's structure, and a signature: both live under STORAGE_DIR.
    const mine = (await t.app.inject({ method: 'GET', url: '/api/v1/reformes/users/get-by-role', headers: saisie })).json().data as Array<{
      id: number;
    }>;
    const form = new FormData();
    form.append('name_file', "Rapport d'étape");
    form.append('reforme_id', String(mine[0].id));
    form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'rapport.pdf');
    const uploaded = await t.app.inject({ method: 'POST', url: '/api/v1/files', headers: saisie, payload: form });
    expect(uploaded.statusCode).toBe(201);
    const [row] = (
      await t.database.pool.query<{ id: number; name: string }>('select id, name from reforme_files where id = $1', [
        uploaded.json().data.id,
      ])
    ).rows;
    attachment = row;
    const signature = new FormData();
    signature.append(
      'signature',
      new Blob([Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')], { type: 'image/png' }),
      'signature.png',
    );
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/user-settings', headers: publication, payload: signature })).statusCode,
    ).toBe(201);

    const backup = await t.app.inject({ method: 'GET', url: '/api/v1/api/save-db', headers: admin });
    expect(backup.statusCode).toBe(200);
    expect(backup.json().message).toBe('Base de donnée sauvegardée');
    const rows = backup.json().data as Array<{ name: string; type: string }>;
    const made = path.join(t.config.backupDir, 'db_data', rows.find((entry) => entry.type !== 'doc')?.name as string);
    const docsBackup = path.join(t.config.backupDir, 'docs', rows.find((entry) => entry.type === 'doc')?.name as string);
    expect(fs.existsSync(made) && fs.existsSync(docsBackup)).toBe(true);
    expect(made.endsWith(t.database.kind === 'embedded' ? '-db.jsonl.gz' : '-db.dump')).toBe(true);
    if (t.database.kind === 'embedded') backups['jsonl.gz'] = made;
    else {
      // What the embedded database's backup would have written, beside pg_dump's, under the same name.
      backups.dump = made;
      backups['jsonl.gz'] = made.replace(/-db\.dump$/, '-db.jsonl.gz');
      const client = await t.database.pool.connect();
      try {
        await writeLogicalBackup(client, backups['jsonl.gz']);
      } finally {
        client.release();
      }
    }

    source = await snapshotOf(t.database);
    sourceFiles = filesUnder(t.config.storageDir);
    expect(source.reforme_files.count).toBeGreaterThan(0);
    expect(source.suivi_results.count).toBeGreaterThan(0);
    expect(sourceFiles.get(path.join('reformes', attachment.name))).toEqual(PDF);
  }, SLOW);

  afterAll(async () => {
    await t?.close();
    for (const url of scratchUrls) await dropScratchDatabase(testServerUrl(), url);
    for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
  }, SLOW);

  describe.each(SCENARIOS)('a ….$format backup into the $into database', ({ format, into }) => {
    let restoreDir: string;
    let restoreUrl: string | undefined;
    const backup = () => backups[format];

    /** The environment of the installation restored into: its data folder, and its own database on PostgreSQL. */
    const installation = (dataDir: string, extra: Record<string, string> = {}) => ({
      DATA_DIR: dataDir,
      // With DATABASE_URL the configuration refuses the default JWT_SECRET, in the commands as in the server.
      ...(restoreUrl ? { DATABASE_URL: restoreUrl, JWT_SECRET } : {}),
      ...extra,
    });
    const embeddedDirOf = (dataDir: string) => loadConfig({ DATA_DIR: dataDir }).embeddedDir;
    const openRestored = (dataDir: string): Promise<Database> | Database =>
      restoreUrl ? connectPostgres(restoreUrl) : connectEmbedded(embeddedDirOf(dataDir), { onLog: () => undefined });

    beforeAll(async () => {
      restoreDir = freshDir();
      if (into === 'postgresql') restoreUrl = await scratchDatabase();
    }, SLOW);

    it(
      'restores the database and the documents into an empty installation: same rows, same bytes, a working app',
      async () => {
        const { code, output } = await runRestore([backup()], installation(restoreDir));
        expect(output).toContain('Documents restaurés dans');
        expect(output).toContain(`Base restaurée depuis ${path.basename(backup())}.`);
        expect(code).toBe(0);

        const restoredFiles = filesUnder(path.join(restoreDir, 'storage'));
        expect([...restoredFiles.keys()].sort()).toEqual([...sourceFiles.keys()].sort());
        for (const [name, bytes] of sourceFiles) expect(restoredFiles.get(name)?.equals(bytes)).toBe(true);
        expect(restoredFiles.get(path.join('reformes', attachment.name))?.equals(PDF)).toBe(true);

        const database = await openRestored(restoreDir);
        try {
          expect(await snapshotOf(database)).toEqual(source);
          const audited = await database.pool.query("select target_label from audit_log where action = 'backup.restore'");
          expect(audited.rows).toEqual([{ target_label: path.basename(backup()) }]);
          // The restored installation starts and serves the attachment to a user who signs in.
          await runMigrations(database);
          const config = loadConfig({
            NODE_ENV: 'test',
            LOG_LEVEL: 'silent',
            WEB_DIST: path.join(restoreDir, 'no-web'),
            ...installation(restoreDir),
          });
          const app = await buildApp({ config, database, logger: false });
          try {
            const login = await app.inject({
              method: 'POST',
              url: '/api/v1/api/login',
              payload: { email: 'saisie@reformes.test', password: 'Reformes2026!', device: 'web' },
            });
            expect(login.statusCode).toBe(200);
            const file = await app.inject({
              method: 'GET',
              url: `/api/v1/files/${attachment.id}`,
              headers: bearer(login.json().data.access_token),
            });
            expect(file.statusCode).toBe(200);
            expect(file.rawPayload.equals(PDF)).toBe(true);
          } finally {
            await app.close();
          }
          // Changes made after the restore, which a forced restore must undo.
          await database.pool.query('delete from suivi_results where id = (select min(id) from suivi_results)');
        } finally {
          await database.close();
        }
        fs.writeFileSync(path.join(restoreDir, 'storage', 'reformes', 'ajout-apres-restauration.pdf'), PDF);
      },
      SLOW,
    );

    it(
      'refuses to overwrite a non-empty installation without --force ("n\'est pas vide", "contient déjà des données")',
      async () => {
        const { code, output } = await runRestore([backup()], installation(restoreDir));
        expect(code).not.toBe(0);
        expect(output).toContain(
          `Le dossier des documents ${path.join(restoreDir, 'storage')} n'est pas vide : ajoutez --force pour l'écraser.`,
        );
        expect(fs.existsSync(path.join(restoreDir, 'storage', 'reformes', 'ajout-apres-restauration.pdf'))).toBe(true);

        // Documents folder empty, database not: the database check refuses too.
        const emptyStorage = path.join(freshDir(), 'storage');
        const databaseOnly = await runRestore([backup()], installation(restoreDir, { STORAGE_DIR: emptyStorage }));
        expect(databaseOnly.code).not.toBe(0);
        expect(databaseOnly.output).toContain(
          restoreUrl
            ? 'La base PostgreSQL contient déjà des données : ajoutez --force pour les remplacer.'
            : `La base embarquée ${embeddedDirOf(restoreDir)} n'est pas vide : ajoutez --force pour la remplacer.`,
        );
        expect(fs.existsSync(emptyStorage) ? fs.readdirSync(emptyStorage) : []).toEqual([]);
      },
      SLOW,
    );

    it(
      'overwrites a non-empty installation with --force, back to the backed-up rows and files',
      async () => {
        const { code, output } = await runRestore(
          [path.basename(backup()), '--force'],
          installation(restoreDir, { BACKUP_DIR: t.config.backupDir }),
        );
        expect(output).toContain(`Base restaurée depuis ${path.basename(backup())}.`);
        expect(code).toBe(0);

        const restoredFiles = filesUnder(path.join(restoreDir, 'storage'));
        expect([...restoredFiles.keys()].sort()).toEqual([...sourceFiles.keys()].sort());
        for (const [name, bytes] of sourceFiles) expect(restoredFiles.get(name)?.equals(bytes)).toBe(true);

        const database = await openRestored(restoreDir);
        try {
          expect(await snapshotOf(database)).toEqual(source);
        } finally {
          await database.close();
        }
      },
      SLOW,
    );
  });

  it(
    'refuses an unknown backup, a file that is no database backup, and a pg_dump backup without DATABASE_URL',
    async () => {
      const missing = await runRestore(['reformes-inexistante-db.jsonl.gz'], { DATA_DIR: freshDir() });
      expect(missing.code).not.toBe(0);
      expect(missing.output).toContain('Sauvegarde introuvable : reformes-inexistante-db.jsonl.gz');

      const other = path.join(freshDir(), 'reformes-autre-db.zip');
      fs.writeFileSync(other, 'pas une sauvegarde');
      const refused = await runRestore([other], { DATA_DIR: freshDir() });
      expect(refused.code).not.toBe(0);
      expect(refused.output).toContain(
        "reformes-autre-db.zip n'est pas une sauvegarde de la base (…-db.jsonl.gz, …-db.dump ou …-db.tar.gz).",
      );

      const dump = path.join(freshDir(), 'reformes-autre-db.dump');
      fs.writeFileSync(dump, 'pas une vraie sauvegarde');
      const target = freshDir();
      const withoutUrl = await runRestore([dump], { DATA_DIR: target });
      expect(withoutUrl.code).not.toBe(0);
      expect(withoutUrl.output).toContain('Une sauvegarde PostgreSQL (.dump) se restaure avec DATABASE_URL défini.');
      expect(fs.readdirSync(target)).toEqual([]);
    },
    SLOW,
  );

  it(
    'refuses a damaged dump even with --force, before anything is dropped',
    async () => {
      const url = await scratchDatabase();
      const env = { DATA_DIR: freshDir(), DATABASE_URL: url, JWT_SECRET };
      expect((await runRestore([backups['jsonl.gz']], env)).code).toBe(0);
      const cut = path.join(freshDir(), path.basename(backups['jsonl.gz']));
      const whole = fs.readFileSync(backups['jsonl.gz']);
      fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.8)));

      const { code, output } = await runRestore([cut, '--force'], env);
      expect(code).not.toBe(0);
      expect(output).toContain(`Le fichier ${path.basename(cut)} est altéré ou tronqué`);
      const database = connectPostgres(url);
      try {
        expect(await snapshotOf(database)).toEqual(source);
      } finally {
        await database.close();
      }
    },
    SLOW,
  );

  it(
    'restores a backup of the PGlite era (….tar.gz) through the conversion, with the restore in its audit log',
    async () => {
      const root = freshDir();
      const { backupFile } = await createLegacyPgliteFixture(root);
      const url = await scratchDatabase();
      const { code, output } = await runRestore([backupFile], { DATA_DIR: freshDir(), DATABASE_URL: url, JWT_SECRET });
      expect(output).toContain(`Base restaurée depuis ${path.basename(backupFile)}.`);
      expect(code).toBe(0);
      const database = connectPostgres(url);
      try {
        const users = await database.pool.query<{ email: string }>('select email from users order by email');
        expect(users.rows.map((row) => row.email)).toContain('admin@reformes.test');
        const audited = await database.pool.query("select target_label from audit_log where action = 'backup.restore'");
        expect(audited.rows).toEqual([{ target_label: path.basename(backupFile) }]);
      } finally {
        await database.close();
      }
    },
    SLOW,
  );
});
