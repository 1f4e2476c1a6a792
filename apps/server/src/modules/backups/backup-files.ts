import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { encryptionStage } from './backup-crypto.ts';

/** Backup folders under BACKUP_DIR, as the download paths of spec §7 name them. */
export const BACKUP_FOLDERS = { doc: 'docs', db: 'db_data' } as const;

export function backupFolderOf(type: string): string {
  return type === 'doc' ? BACKUP_FOLDERS.doc : BACKUP_FOLDERS.db;
}

/** Runs a command, collecting stderr for the error message. */
function run(command: string, args: string[]): Promise<void> {
  return exitOf(spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] }), command);
}

/** Resolves when the command succeeds; its stderr makes the error message. */
function exitOf(child: ChildProcess, command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new AppError(
              500,
              `La commande ${command} est introuvable : installez le client PostgreSQL de la même version majeure que le serveur (paquet postgresql-client).`,
            )
          : error,
      );
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} a échoué (code ${code}) : ${stderr.trim()}`))));
  });
}

/** Writes a new backup file, readable by the server's user only, encrypted when a key is given (backup-crypto.ts). */
async function writeBackup(source: Readable, file: string, key: Buffer | undefined): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const target = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  await (key ? pipeline(source, encryptionStage(key), target) : pipeline(source, target));
}

/** The database dump: PGlite's data-directory tarball, or `pg_dump` custom format. */
export async function dumpDatabase(database: Database, file: string, key?: Buffer): Promise<void> {
  if (database.snapshot) {
    await writeBackup(Readable.from([await database.snapshot()]), file, key);
    return;
  }
  if (!database.url) throw new Error('Adresse de la base inconnue pour pg_dump');
  const child = spawn('pg_dump', ['--format=custom', '--no-owner', `--dbname=${database.url}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  const [written, exited] = await Promise.allSettled([writeBackup(child.stdout, file, key), exitOf(child, 'pg_dump')]);
  // pg_dump's own failure says more than the broken pipe it causes.
  if (exited.status === 'rejected') throw exited.reason;
  if (written.status === 'rejected') throw written.reason;
}

export function databaseDumpExtension(database: Database): string {
  return database.snapshot ? 'tar.gz' : 'dump';
}

/** The documents archive: everything under STORAGE_DIR (attachments, signatures). */
export async function archiveDocuments(storageDir: string, file: string, key?: Buffer): Promise<void> {
  await fs.promises.mkdir(storageDir, { recursive: true, mode: 0o700 });
  await writeBackup(Readable.from(tar.c({ gzip: true, cwd: storageDir, portable: true }, ['.'])), file, key);
}

export async function extractDocuments(file: string, storageDir: string): Promise<void> {
  await fs.promises.mkdir(storageDir, { recursive: true, mode: 0o700 });
  await tar.x({ file, cwd: storageDir, strict: true });
}

export async function restorePostgres(file: string, databaseUrl: string, clean: boolean): Promise<void> {
  await run('pg_restore', ['--no-owner', ...(clean ? ['--clean', '--if-exists'] : []), `--dbname=${databaseUrl}`, file]);
}
