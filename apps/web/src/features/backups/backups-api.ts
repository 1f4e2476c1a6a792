import { BACKUPS_ROUTES, type Backup } from '@reformes/domain';
import { call } from '../../api/call.ts';
import { downloadFile } from '../../api/download.ts';
import { pageQuery } from '../../api/list-api.ts';

/** The backups are listed by `GET api/backups` (searched by the server). */
export const BACKUPS_LIST = { list: BACKUPS_ROUTES.listApi };

/** `GET api/backups?per_page=10&page=N&search=`: newest first, searched by the server on the name and the type. */
export const backupsPageQuery = (page: number, search = '') => pageQuery(BACKUPS_LIST, page, search);

/** `GET api/save-db`: dumps the database and archives the documents (two new rows); takes a few seconds. */
export function makeBackup() {
  return call(BACKUPS_ROUTES.save, {});
}

/** Spec §7: documents under storage/backups/docs, database dumps under storage/backups/db_data. */
export function downloadBackup(backup: Pick<Backup, 'name' | 'type'>) {
  const spec = backup.type === 'doc' ? BACKUPS_ROUTES.downloadDoc : BACKUPS_ROUTES.downloadDb;
  return downloadFile(spec, { params: { name: backup.name } }, backup.name);
}

export type { Backup };
