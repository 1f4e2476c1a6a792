import type { Backup } from '@reformes/domain';
import { type ApiResponse, api } from '../../api/client.ts';
import { downloadFile } from '../../api/download.ts';
import { pageQuery } from '../../api/list-api.ts';

export const BACKUPS_RESOURCE = 'api/backups';

/** `GET api/backups?per_page=10&page=N&search=`: newest first, searched by the server on the name and the type. */
export const backupsPageQuery = (page: number, search = '') => pageQuery<Backup>(BACKUPS_RESOURCE, page, search);

/** `GET api/save-db`: dumps the database and archives the documents (two new rows); takes a few seconds. */
export function makeBackup() {
  return api.get<ApiResponse<Backup[]>>('api/save-db', { action: 'add' });
}

/** Spec §7: documents under storage/backups/docs, database dumps under storage/backups/db_data. */
export function downloadBackup(backup: Pick<Backup, 'name' | 'type'>) {
  const folder = backup.type === 'doc' ? 'docs' : 'db_data';
  return downloadFile(`storage/backups/${folder}/${encodeURIComponent(backup.name)}`, backup.name);
}

export type { Backup };
