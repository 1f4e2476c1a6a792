import { type ApiResponse, api, apiBlob } from '../../api/client.ts';
import type { ReformeFile } from './reformes-api.ts';

/**
 * `POST files` (multipart name_file, file, reforme_id?): without a reform the upload waits, and the
 * reform form attaches it with `files: [id]` on save.
 */
export function uploadFile(nameFile: string, file: File, reformeId?: number) {
  const body = new FormData();
  body.set('name_file', nameFile);
  if (reformeId !== undefined) body.set('reforme_id', String(reformeId));
  body.set('file', file);
  return api.post<ApiResponse<ReformeFile>>('files', { action: 'add', body });
}

export const deleteFile = (id: number) => api.delete<{ message: string }>(`files/${id}`, { action: 'delete' });

/**
 * "voir fichier": the PDF is read with the bearer token and shown from an object URL in a new tab.
 * The tab opens before the download so that the browser does not take it for an unwanted pop-up.
 */
export async function openFile(id: number): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const blob = await apiBlob(`files/${id}`, { action: 'show' });
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
