import { type CallInput, callBlob, type FileRoute } from './call.ts';

/** How long the browser keeps the downloaded file's object URL before it is released. */
const RELEASE_DELAY_MS = 60_000;

/**
 * Downloads a file the API streams, with the bearer token a plain link cannot carry, and saves it under `filename`:
 * `downloadFile(BACKUPS_ROUTES.downloadDoc, { params: { name } }, name)`.
 */
export async function downloadFile<R extends FileRoute>(spec: R, input: CallInput<R>, filename: string): Promise<void> {
  const blob = await callBlob(spec, input);
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
