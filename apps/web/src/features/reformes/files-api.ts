import { FILES_ROUTES } from '@reformes/domain';
import { call, callBlob } from '../../api/call.ts';

/**
 * `POST files` (multipart name_file, file, reforme_id?): without a reform the upload waits, and the
 * reform form attaches it with `files: [id]` on save.
 */
export function uploadFile(nameFile: string, file: File, reformeId?: number) {
  const form = new FormData();
  form.set('name_file', nameFile);
  if (reformeId !== undefined) form.set('reforme_id', String(reformeId));
  form.set('file', file);
  return call(FILES_ROUTES.upload, { form });
}

export const deleteFile = (id: number) => call(FILES_ROUTES.remove, { params: { id } });

/**
 * "voir fichier": the PDF is read with the bearer token and shown from an object URL in a new tab.
 * The tab opens before the download so that the browser does not take it for an unwanted pop-up.
 */
export async function openFile(id: number): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const blob = await callBlob(FILES_ROUTES.show, { params: { id } });
    const url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
    if (tab) tab.location.href = url;
    else window.location.assign(url);
    // The tab has its own copy once loaded; a minute is plenty.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    throw error;
  }
}
