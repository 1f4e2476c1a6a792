import type { ImportFilePreview, ImportPreview, ImportRow } from '@reformes/domain';
import { type ApiResponse, api } from '../../../api/client.ts';
import { downloadFile } from '../../../api/download.ts';

/** Uploads the file and reads it on the server: its lines and every issue, nothing written. */
export async function previewImportFile(file: File, onProgress: (share: number) => void): Promise<ImportFilePreview> {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await api.post<ApiResponse<ImportFilePreview>>('reformes/import/preview', {
    action: 'add',
    body: form,
    onUploadProgress: onProgress,
  });
  return response.data;
}

/** The lines as the screen holds them now (fixed, some dropped), checked again by the server. */
export async function checkImportRows(rows: ImportRow[]): Promise<ImportPreview> {
  return (await api.post<ApiResponse<ImportPreview>>('reformes/import/check', { action: 'add', body: { rows } })).data;
}

export async function importRows(rows: ImportRow[]): Promise<ApiResponse<ImportPreview>> {
  return api.post<ApiResponse<ImportPreview>>('reformes/import', { action: 'add', body: { rows } });
}

export const downloadImportTemplate = (extension: 'csv' | 'xlsx') =>
  downloadFile(`reformes/import/template.${extension}`, `modele-import-reformes.${extension}`);
