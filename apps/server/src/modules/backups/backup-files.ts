import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';

/** Backup folders under BACKUP_DIR, as the download paths of spec §7 name them. */
export const BACKUP_FOLDERS = { doc: 'docs', db: 'db_data' } as const;

export function backupFolderOf(type: string): string {
  return type === 'doc' ? BACKUP_FOLDERS.doc : BACKUP_FOLDERS.db;
}

/** Runs a command, collecting stderr for the error message. */
function run(command: string, args: string[], env?: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
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

/** The database dump: PGlite's data-directory tarball, or `pg_dump` custom format. */
export async function dumpDatabase(database: Database, file: string): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  if (database.snapshot) {
    await fs.promises.writeFile(file, await database.snapshot());
    return;
  }
  if (!database.url) throw new Error('Adresse de la base inconnue pour pg_dump');
  await run('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${database.url}`]);
}

export function databaseDumpExtension(database: Database): string {
  return database.snapshot ? 'tar.gz' : 'dump';
}

/** The documents archive: everything under STORAGE_DIR (attachments, signatures). */
export async function archiveDocuments(storageDir: string, file: string): Promise<void> {
  await fs.promises.mkdir(storageDir, { recursive: true });
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  await tar.c({ gzip: true, file, cwd: storageDir, portable: true }, ['.']);
}

export async function extractDocuments(file: string, storageDir: string): Promise<void> {
  await fs.promises.mkdir(storageDir, { recursive: true });
  await tar.x({ file, cwd: storageDir, strict: true });
}

export async function restorePostgres(file: string, databaseUrl: string, clean: boolean): Promise<void> {
  await run('pg_restore', ['--no-owner', ...(clean ? ['--clean', '--if-exists'] : []), `--dbname=${databaseUrl}`, file]);
}
