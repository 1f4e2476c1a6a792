import { parentPort, workerData } from 'node:worker_threads';
import { IMPORT_MESSAGES } from '@reformes/domain';
import { readCsv, readWorkbook, SheetError } from './import-sheet.ts';

/**
 * Reads one uploaded sheet away from the server's event loop (issue 28), under the memory limits and the time
 * limit `import-file.ts` gives it. Answers `{ lines }`, one buffer moved to the server (`import-lines.ts`, at most
 * `IMPORT_LIMITS.resultBytes`), or `{ status, message }`, a refusal of at most `MESSAGE_LENGTH` characters: nothing
 * it answers is larger than its limits, however many cells show the same text (issue 40).
 */
const MESSAGE_LENGTH = 1000;
const { kind, content } = workerData as { kind: 'csv' | 'xlsx'; content: Uint8Array };
const buffer = Buffer.from(content.buffer, content.byteOffset, content.byteLength);

try {
  const lines = kind === 'csv' ? readCsv(buffer) : await readWorkbook(buffer);
  parentPort?.postMessage({ lines }, [lines]);
} catch (error) {
  const refusal = error instanceof SheetError ? error : new SheetError(422, IMPORT_MESSAGES.unreadable);
  parentPort?.postMessage({ status: refusal.status, message: refusal.message.slice(0, MESSAGE_LENGTH) });
}
