import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { IMPORT_LIMITS, IMPORT_MESSAGES } from '@reformes/domain';
import { AppError, tooManyRequests } from '../../http/app-error.ts';
import { readLines } from './import-lines.ts';

const refuse = (message: string, status = 422) => new AppError(status, message);
const ZIP = Buffer.from('PK\u0003\u0004', 'latin1');

/** The reading worker, beside this file: the compiled `import-worker.js` in dist/, its source under tsx and Vitest. */
function startWorker(options: WorkerOptions): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./import-worker.js', import.meta.url), options);
  // A worker thread does not inherit tsx's loader (nor take it from `execArgv` on Node 20): it registers it first.
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const source = new URL('./import-worker.ts', import.meta.url).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(code, { ...options, eval: true });
}

/** Heap of the reading worker: a file that needs more is refused, the server keeps its own. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, codeRangeSizeMb: 16, stackSizeMb: 4 };

/**
 * The cells of the first sheet of an uploaded file, as text, header first: a CSV in UTF-8 (`;` or `,`, with or
 * without BOM) or an xlsx workbook without macros. Anything else is refused with a French message. The file is
 * read in a worker thread, within `IMPORT_LIMITS`, so that a hostile file never stalls nor kills the server.
 */
export async function readSheet(filename: string, content: Buffer): Promise<string[][]> {
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (extension === 'xlsm' || extension === 'xlsb' || extension === 'xls') throw refuse(IMPORT_MESSAGES.macro, 415);
  if (extension === 'xlsx' || content.subarray(0, 4).equals(ZIP)) {
    // A macro-enabled workbook saved as .xlsx still carries its VBA project: refused by what it holds, not by its name.
    if (content.includes('xl/vbaProject.bin')) throw refuse(IMPORT_MESSAGES.macro, 415);
    return readInWorker('xlsx', content);
  }
  if (extension !== 'csv' && extension !== 'txt') throw refuse(IMPORT_MESSAGES.kind, 415);
  return readInWorker('csv', content);
}

/** The longest refusal a worker may send (its own limit is 1 000 characters). */
const MESSAGE_LENGTH = 1000;

/**
 * What the worker sent, checked as input (issue 40): its lines' buffer (size first), or a refusal of the file
 * (4xx, bounded message); anything else is an unreadable file.
 */
async function outcomeOf(answer: unknown): Promise<string[][] | AppError> {
  if (typeof answer === 'object' && answer !== null) {
    const { lines, status, message } = answer as Record<string, unknown>;
    if ('lines' in answer) return (await readLines(lines)) ?? refuse(IMPORT_MESSAGES.unreadable);
    if (typeof status === 'number' && status >= 400 && status < 500 && typeof message === 'string' && message.length <= MESSAGE_LENGTH)
      return refuse(message, status);
  }
  return refuse(IMPORT_MESSAGES.unreadable);
}

let reading = 0;
const waiting: Array<() => void> = [];

/** At most `IMPORT_LIMITS.readers` workers at once: the others wait their turn, and past a short queue are refused. */
async function readInWorker(kind: 'csv' | 'xlsx', content: Buffer): Promise<string[][]> {
  if (reading >= IMPORT_LIMITS.readers) {
    if (waiting.length >= IMPORT_LIMITS.waiting) throw tooManyRequests(IMPORT_MESSAGES.busy, IMPORT_LIMITS.seconds);
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  reading += 1;
  try {
    return await runWorker(kind, content);
  } finally {
    reading -= 1;
    waiting.shift()?.();
  }
}

function runWorker(kind: 'csv' | 'xlsx', content: Buffer): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const worker = startWorker({ workerData: { kind, content }, resourceLimits: WORKER_LIMITS });
    let outcome: (() => void) | undefined;
    const settle = (action: () => void) => {
      if (outcome) return;
      outcome = action;
      void worker.terminate();
    };
    const timer = setTimeout(() => settle(() => reject(refuse(IMPORT_MESSAGES.tooSlow, 413))), IMPORT_LIMITS.seconds * 1000);
    worker.on('message', (answer: unknown) =>
      settle(() => outcomeOf(answer).then((outcome) => (outcome instanceof AppError ? reject(outcome) : resolve(outcome)), reject)),
    );
    // Past its heap limit the worker is stopped by V8 ('error', then 'exit'); the server's own heap is untouched.
    worker.on('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? refuse(IMPORT_MESSAGES.tooHeavy, 413) : refuse(IMPORT_MESSAGES.unreadable)),
      ),
    );
    // The answer goes once the worker is gone, so that its memory is free before the next file takes its turn.
    worker.on('exit', () => {
      clearTimeout(timer);
      (outcome ?? (() => reject(refuse(IMPORT_MESSAGES.unreadable))))();
    });
  });
}
