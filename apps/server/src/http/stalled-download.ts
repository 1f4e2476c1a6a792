import type { ServerResponse } from 'node:http';

/** How long a download may wait for its client to read before it is ended (issue 40, item 6). */
export const DOWNLOAD_STALL_MS = 30_000;

/**
 * Ends `response` once its client has taken nothing for `stallMs` while bytes wait for it: the bytes handed to the
 * kernel (`bytesWritten` less what is still queued) have not moved though some are queued. A server slow to produce
 * (nothing queued) is never cut. Destroying the response closes the socket, which ends the stream and frees what the
 * download held (its place, its batch).
 */
export function endWhenStalled(response: ServerResponse, stallMs = DOWNLOAD_STALL_MS): void {
  const { socket } = response;
  if (!socket) return;
  let taken = -1;
  let takenAt = performance.now();
  const check = setInterval(
    () => {
      const nowTaken = socket.bytesWritten - socket.writableLength;
      if (socket.writableLength === 0 || nowTaken !== taken) {
        taken = nowTaken;
        takenAt = performance.now();
      } else if (performance.now() - takenAt >= stallMs) {
        clearInterval(check);
        response.destroy();
      }
    },
    Math.min(1_000, Math.max(10, stallMs / 5)),
  );
  check.unref();
  response.once('close', () => clearInterval(check));
}
