import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLegacyPgliteFixture, type LegacyPgliteFixture } from '../test/legacy-pglite-fixture.ts';
import { createScratchDatabase, dropScratchDatabase } from '../test/scratch-database.ts';
import { testServerUrl } from '../test/test-database.ts';
import { connectPostgres } from './client.ts';
import { convertPgliteDataDir, isLegacyPgliteDir, restoreLegacyPgliteBackup } from './legacy-pglite.ts';
import { runMigrations } from './migrate.ts';

/** Both sides print values alike (time zone, dates, floats) and sort rows alike (byte order, whatever the locale). */
const SESSION = `set TimeZone = 'UTC'; set DateStyle = 'ISO, YMD'; set extra_float_digits = 1`;
const TABLES = `select table_name as name from information_schema.tables
  where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`;
const SEQUENCES = `select sequencename as name, last_value::text as last from pg_sequences where schemaname = 'public' order by sequencename`;
/** Row count and a checksum over each row's text form, generated columns included: computed here, not by the copy. */
const summaryOf = (table: string) =>
  `select count(*)::int as rows, md5(coalesce(string_agg(t::text, E'\\n' order by t::text collate "C"), '')) as checksum from "${table}" t`;

type Query = <Row>(sql: string) => Promise<Row[]>;
type Summary = Record<string, { rows: number; checksum: string }>;

async function summarise(query: Query): Promise<Summary> {
  const summary: Summary = {};
  for (const { name } of await query<{ name: string }>(TABLES)) {
    [summary[name]] = await query<{ rows: number; checksum: string }>(summaryOf(name));
  }
  return summary;
}

/** Opens the PGlite directory as the old server did and reads it. */
async function readPglite<T>(dir: string, read: (query: Query) => Promise<T>): Promise<T> {
  const pglite = await PGlite.create(dir, { extensions: { pg_trgm } });
  try {
    await pglite.exec(SESSION);
    return await read(async <Row>(sql: string) => (await pglite.query<Row>(sql)).rows);
  } finally {
    await pglite.close();
  }
}

const queryOf =
  (client: pg.Client): Query =>
  async <Row>(sql: string) =>
    (await client.query(sql)).rows as Row[];

describe('legacy PGlite data', () => {
  let root: string;
  let fixture: LegacyPgliteFixture;
  let source: { summary: Summary; sequences: Array<{ name: string; last: string }> };
  const targets: Array<{ url: string; client: pg.Client }> = [];

  /** A new database on the PostgreSQL server, migrated as the caller leaves it before converting. */
  async function migratedTarget(): Promise<pg.Client> {
    const url = await createScratchDatabase(testServerUrl(), 'reformes_legacy');
    const database = connectPostgres(url, { max: 1 });
    try {
      await runMigrations(database);
    } finally {
      await database.close();
    }
    const client = new pg.Client({ connectionString: url });
    targets.push({ url, client });
    await client.connect();
    await client.query(SESSION);
    return client;
  }

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-legacy-'));
    fixture = await createLegacyPgliteFixture(root);
    source = await readPglite(fixture.dataDir, async (query) => ({
      summary: await summarise(query),
      sequences: await query<{ name: string; last: string }>(SEQUENCES),
    }));
  });

  afterAll(async () => {
    for (const { url, client } of targets) {
      await client.end().catch(() => undefined);
      await dropScratchDatabase(testServerUrl(), url);
    }
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });

  it('tells a PGlite data directory from anything else', () => {
    expect(isLegacyPgliteDir(fixture.dataDir)).toBe(true);
    expect(isLegacyPgliteDir(root)).toBe(false);
    expect(isLegacyPgliteDir(path.join(root, 'absent'))).toBe(false);

    // A data directory of a 64-bit PostgreSQL 18 (the app's own): the same PG_VERSION, float8 passed by value.
    const native = path.join(root, 'native');
    fs.mkdirSync(path.join(native, 'global'), { recursive: true });
    fs.copyFileSync(path.join(fixture.dataDir, 'PG_VERSION'), path.join(native, 'PG_VERSION'));
    expect(isLegacyPgliteDir(native)).toBe(false);
    const control = fs.readFileSync(path.join(fixture.dataDir, 'global', 'pg_control'));
    control[248] = 1;
    fs.writeFileSync(path.join(native, 'global', 'pg_control'), control);
    expect(isLegacyPgliteDir(native)).toBe(false);
  });

  it('copies every table of a PGlite directory, row for row, ids continuing, and leaves the directory as it was', async () => {
    // Every table holds rows, so that each comparison below compares something.
    expect(Object.entries(source.summary).filter(([, { rows }]) => rows === 0)).toEqual([]);
    const target = await migratedTarget();
    const logged: string[] = [];

    const report = await convertPgliteDataDir(fixture.dataDir, target, (line) => logged.push(line));

    expect(report.map((copy) => copy.table).sort()).toEqual(Object.keys(source.summary));
    expect(await summarise(queryOf(target))).toEqual(source.summary);
    expect(logged).toContain(`reformes : ${source.summary.reformes.rows} ligne(s) copiée(s) et vérifiée(s)`);
    expect(logged).toContain(`Conversion de la base PGlite de ${fixture.dataDir} vers PostgreSQL…`);

    expect((await target.query(SEQUENCES)).rows).toEqual(source.sequences);
    const last = (name: string) => Number(source.sequences.find((sequence) => sequence.name === name)?.last);
    // natures: two ids were deleted at the end, so the next id follows the sequence, not the highest row.
    const nature = await target.query("insert into natures (libnature) values ('Nature après conversion') returning id");
    expect(nature.rows[0].id).toBe(last('natures_id_seq') + 1);
    const audit = await target.query("insert into audit_log (action, result) values ('conversion', 'success') returning id");
    expect(Number(audit.rows[0].id)).toBe(last('audit_log_id_seq') + 1);

    expect(isLegacyPgliteDir(fixture.dataDir)).toBe(true);
    expect(await readPglite(fixture.dataDir, summarise)).toEqual(source.summary);
  });

  it('restores an old backup tarball the same way, and leaves nothing beside it', async () => {
    const target = await migratedTarget();
    const before = fs.readdirSync(root);

    const report = await restoreLegacyPgliteBackup(fixture.backupFile, target);

    expect(report.find((copy) => copy.table === 'users')?.rows).toBe(source.summary.users.rows);
    expect(await summarise(queryOf(target))).toEqual(source.summary);
    expect(fs.readdirSync(root)).toEqual(before);
  });

  it('refuses a damaged backup or directory, or one without PGlite, in French, and writes nothing', async () => {
    const target = await migratedTarget();
    const before = await summarise(queryOf(target));
    const damaged = path.join(root, 'abimee');
    fs.mkdirSync(path.join(damaged, 'global'), { recursive: true });
    for (const file of ['PG_VERSION', 'global/pg_control']) fs.copyFileSync(path.join(fixture.dataDir, file), path.join(damaged, file));
    const tarball = fs.readFileSync(fixture.backupFile);
    const truncated = path.join(root, 'tronquee-db.tar.gz');
    fs.writeFileSync(truncated, tarball.subarray(0, tarball.length / 2));
    const garbage = path.join(root, 'illisible-db.tar.gz');
    fs.writeFileSync(garbage, 'pas une archive');
    const documents = path.join(root, 'documents-docs.tar.gz');
    fs.mkdirSync(path.join(root, 'storage', 'reformes'), { recursive: true });
    fs.writeFileSync(path.join(root, 'storage', 'reformes', 'note.pdf'), '%PDF-1.4');
    await tar.c({ gzip: true, file: documents, cwd: path.join(root, 'storage') }, ['reformes']);
    const listing = fs.readdirSync(root);

    await expect(restoreLegacyPgliteBackup(truncated, target)).rejects.toThrow(
      "La base PGlite de la sauvegarde tronquee-db.tar.gz n'a pas pu être ouverte : archive abîmée ou incomplète (zlib: unexpected end of file)",
    );
    await expect(restoreLegacyPgliteBackup(garbage, target)).rejects.toThrow(
      "La base PGlite de la sauvegarde illisible-db.tar.gz n'a pas pu être ouverte : archive abîmée ou incomplète",
    );
    await expect(restoreLegacyPgliteBackup(documents, target)).rejects.toThrow(
      "La base PGlite de la sauvegarde documents-docs.tar.gz n'a pas pu être ouverte : l'archive ne contient pas de base PGlite",
    );
    await expect(restoreLegacyPgliteBackup(path.join(root, 'absente-db.tar.gz'), target)).rejects.toThrow(
      "La base PGlite de la sauvegarde absente-db.tar.gz n'a pas pu être ouverte : fichier introuvable",
    );
    await expect(convertPgliteDataDir(damaged, target, () => undefined)).rejects.toThrow(
      `La base PGlite de ${damaged} n'a pas pu être ouverte : `,
    );
    await expect(convertPgliteDataDir(root, target, () => undefined)).rejects.toThrow(`Aucune base PGlite dans ${root}.`);

    expect(await summarise(queryOf(target))).toEqual(before);
    expect(before.users.rows + before.reformes.rows).toBe(0);
    expect(fs.readdirSync(root)).toEqual(listing);
  });
});
