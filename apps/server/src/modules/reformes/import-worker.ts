import { parentPort, workerData } from 'node:worker_threads';
import { readCsv, readWorkbook, SheetError } from './import-sheet.ts';

/**
 * Reads one uploaded sheet away from the server's event loop (issue 28), under the memory limits and the time
 * limit `import-file.ts` gives it. Answers `{ lines }` or `{ status, message }`.
 */
const { kind, content } = workerData as { kind: 'csv' | 'xlsx'; content: Uint8Array };
const buffer = Buffer.from(content.buffer, content.byteOffset, content.byteLength);

try {
  const lines = kind === 'csv' ? readCsv(buffer) : await readWorkbook(buffer);
  parentPort?.postMessage({ lines });
} catch (error) {
  if (!(error instanceof SheetError)) throw error;
  parentPort?.postMessage({ status: error.status, message: error.message });
}
