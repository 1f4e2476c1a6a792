import { type AnswerOf, type ImportFilePreview, type ImportPreview, type ImportRow, REFORME_IMPORT_ROUTES } from '@reformes/domain';
import { call } from '../../../api/call.ts';
import { downloadFile } from '../../../api/download.ts';

/** Uploads the file and reads it on the server: its lines and every issue, nothing written. */
export async function previewImportFile(file: File, onProgress: (share: number) => void): Promise<ImportFilePreview> {
  const form = new FormData();
  form.append('file', file, file.name);
  const response = await call(REFORME_IMPORT_ROUTES.preview, { form, onUploadProgress: onProgress });
  return response.data;
}

/** The lines as the screen holds them now (fixed, some dropped), checked again by the server. */
export async function checkImportRows(rows: ImportRow[]): Promise<ImportPreview> {
  return (await call(REFORME_IMPORT_ROUTES.check, { body: { rows } })).data;
}

export async function importRows(rows: ImportRow[]): Promise<AnswerOf<typeof REFORME_IMPORT_ROUTES.commit>> {
  return call(REFORME_IMPORT_ROUTES.commit, { body: { rows } });
}

export const downloadImportTemplate = (extension: 'csv' | 'xlsx') =>
  downloadFile(
    extension === 'csv' ? REFORME_IMPORT_ROUTES.templateCsv : REFORME_IMPORT_ROUTES.templateXlsx,
    {},
    `modele-import-reformes.${extension}`,
  );
