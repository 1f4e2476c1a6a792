import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { connectEmbedded, connectPostgres } from './client.ts';
import { copyDatabase, holdsData, type TableCopy } from './copy-database.ts';
import { runMigrations } from './migrate.ts';

export interface MigrateOptions {
  /** The embedded cluster's folder (config.embeddedDir). */
  embeddedDir: string;
  /** The stored documents (config.storageDir). */
  storageDir: string;
  /** postgres://… of the target database. */
  to: string;
  /** Where the PostgreSQL installation keeps its documents; the same folder (nothing to copy) when absent. */
  toStorage?: string;
  /** Overwrite a target database (or documents folder) that already holds data. */
  force?: boolean;
  log?: (message: string) => void;
}

export interface MigrateReport {
  tables: TableCopy[];
  documents: number;
}

/** Refusals the command prints as they are, in French: the operator fixes the command line and runs it again. */
export class MigrateRefusal extends Error {}

const isEmptyDir = (dir: string) => !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;

/**
 * The embedded database -> PostgreSQL: both brought to the latest migrations, every table copied and checked
 * (`copyDatabase`: row counts and checksums, one transaction), then the documents copied and checked file by file.
 * The embedded database is opened with its lock: the server must be stopped.
 */
export async function migrateToPostgres(options: MigrateOptions): Promise<MigrateReport> {
  const { embeddedDir, storageDir, to, force = false, log = () => undefined } = options;
  if (!/^postgres(ql)?:\/\//.test(to)) throw new MigrateRefusal(`--to attend une adresse postgres://…, pas « ${to} ».`);
  if (!fs.existsSync(path.join(embeddedDir, 'PG_VERSION'))) throw new MigrateRefusal(`Aucune base embarquée dans ${embeddedDir}.`);
  const toStorage = options.toStorage && path.resolve(options.toStorage) !== path.resolve(storageDir) ? options.toStorage : undefined;
  if (toStorage && !isEmptyDir(toStorage) && !force)
    throw new MigrateRefusal(`Le dossier des documents ${toStorage} n'est pas vide : ajoutez --force pour l'écraser.`);

  const target = connectPostgres(to, { max: 1 });
  try {
    const client = await target.pool.connect().catch((error: Error) => {
      throw new MigrateRefusal(`La base PostgreSQL ne répond pas (${error.message}).`);
    });
    try {
      if (await holdsData(client)) {
        if (!force) throw new MigrateRefusal('La base PostgreSQL contient déjà des données : ajoutez --force pour les remplacer.');
        log('Base cible non vide : elle est vidée (--force).');
        await client.query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public');
      }
    } finally {
      client.release();
    }
    await runMigrations(target);

    const source = await connectEmbedded(embeddedDir);
    let tables: TableCopy[];
    try {
      await runMigrations(source);
      const [from, into] = [await source.pool.connect(), await target.pool.connect()];
      try {
        tables = await copyDatabase(from, into, (table, rows) => log(`${table} : ${rows} ligne(s) copiée(s) et vérifiée(s)`));
      } finally {
        from.release();
        into.release();
      }
    } finally {
      await source.close();
    }
    const documents = toStorage ? await copyDocuments(storageDir, toStorage, force) : countFiles(storageDir);
    log(
      toStorage
        ? `${documents} document(s) copié(s) et vérifié(s) dans ${toStorage}.`
        : `${documents} document(s) : ils restent dans ${storageDir}, que le serveur PostgreSQL doit garder (STORAGE_DIR).`,
    );
    return { tables, documents };
  } finally {
    await target.close();
  }
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

const countFiles = (dir: string) => filesUnder(dir).length;

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}

/** Each document copied, then read back and compared by SHA-256; a difference stops the command. */
async function copyDocuments(from: string, to: string, force: boolean): Promise<number> {
  if (force) fs.rmSync(to, { recursive: true, force: true });
  const files = filesUnder(from);
  for (const file of files) {
    const [source, target] = [path.join(from, file), path.join(to, file)];
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    await fs.promises.copyFile(source, target);
    if ((await sha256(source)) !== (await sha256(target))) throw new Error(`Copie du document ${file} altérée.`);
  }
  return files.length;
}
