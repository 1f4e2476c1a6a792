import { apiBlob } from './client.ts';

/** How long the browser keeps the downloaded file's object URL before it is released. */
const RELEASE_DELAY_MS = 60_000;

/**
 * Downloads a file the API streams, with the bearer token a plain link cannot carry, and saves it
 * under `filename`: `downloadFile('storage/backups/docs/a.tar.gz', 'a.tar.gz')`.
 */
export async function downloadFile(path: string, filename: string): Promise<void> {
  const blob = await apiBlob(path, { action: 'show' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), RELEASE_DELAY_MS);
}
