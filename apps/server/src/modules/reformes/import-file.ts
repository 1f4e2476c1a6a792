import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { IMPORT_LIMITS, IMPORT_MESSAGES } from '@reformes/domain';
import { AppError, tooManyRequests } from '../../http/app-error.ts';
import { createSlots } from '../../http/slots.ts';
import { readLines } from './import-lines.ts';

const refuse = (message: string, status = 422) => new AppError(status, message);
const ZIP = Buffer.from('PK\u0003\u0004', 'latin1');

/**
 * Memory of the reading process: a file that needs more is refused. A process, not a worker thread (issue 40): a
 * thread's heap, its copy of the file and of exceljs are the server's RSS (+130 MB for one file); a process's are not.
 */
const READER_FLAGS = ['--max-old-space-size=128', '--max-semi-space-size=8'];

/**
 * The reading process (`import-worker.ts`, beside this file: the compiled `import-worker.js` in dist/, its source under
 * tsx and Vitest), with an empty environment: it reads a stranger's file and needs none of the server's secrets.
 */
function startReader(kind: 'csv' | 'xlsx'): ChildProcess {
  const script = import.meta.url.endsWith('.ts')
    ? [
        '--import',
        pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href,
        fileURLToPath(new URL('./import-worker.ts', import.meta.url)),
      ]
    : [fileURLToPath(new URL('./import-worker.js', import.meta.url))];
  return spawn(process.execPath, [...READER_FLAGS, ...script, kind], { stdio: ['pipe', 'pipe', 'pipe'], env: {} });
}

/** The longest refusal a reader may send (its own limit is 1 000 characters, quoted in JSON). */
const REFUSAL_BYTES = 8 * 1024;
/** What is kept of the reader's stderr: enough to tell V8's out-of-memory message. */
const STDERR_KEPT = 4 * 1024;

/**
 * What the reader wrote, checked as input (issue 40): `L` and its lines' buffer (size first), or `R` and a refusal of
 * the file (4xx, bounded message); anything else is an unreadable file.
 */
async function outcomeOf(answer: Uint8Array): Promise<string[][] | AppError> {
  if (answer[0] === 0x4c) return (await readLines(answer.subarray(1))) ?? refuse(IMPORT_MESSAGES.unreadable);
  if (answer[0] === 0x52 && answer.length <= REFUSAL_BYTES) {
    try {
      const { status, message } = JSON.parse(Buffer.from(answer.subarray(1)).toString('utf8')) as Record<string, unknown>;
      if (typeof status === 'number' && status >= 400 && status < 500 && typeof message === 'string') return refuse(message, status);
    } catch {
      // Not JSON: unreadable, below.
    }
  }
  return refuse(IMPORT_MESSAGES.unreadable);
}

/**
 * The cells of the first sheet of an uploaded file, as text, header first: a CSV in UTF-8 (`;` or `,`, with or
 * without BOM) or an xlsx workbook without macros. Anything else is refused with a French message. The file is
 * read in a process of its own, within `IMPORT_LIMITS`, so that a hostile file never stalls nor kills the server.
 */
export async function readSheet(filename: string, content: Buffer): Promise<string[][]> {
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (extension === 'xlsm' || extension === 'xlsb' || extension === 'xls') throw refuse(IMPORT_MESSAGES.macro, 415);
  if (extension === 'xlsx' || content.subarray(0, 4).equals(ZIP)) {
    // A macro-enabled workbook saved as .xlsx still carries its VBA project: refused by what it holds, not by its name.
    if (content.includes('xl/vbaProject.bin')) throw refuse(IMPORT_MESSAGES.macro, 415);
    return readInReader('xlsx', content);
  }
  if (extension !== 'csv' && extension !== 'txt') throw refuse(IMPORT_MESSAGES.kind, 415);
  return readInReader('csv', content);
}

/** At most `IMPORT_LIMITS.readers` readers at once: the others wait their turn, and past a short queue are refused. */
const withReaderSlot = createSlots(IMPORT_LIMITS.readers, {
  waiting: IMPORT_LIMITS.waiting,
  refusal: () => tooManyRequests(IMPORT_MESSAGES.busy, IMPORT_LIMITS.seconds),
});

const readInReader = (kind: 'csv' | 'xlsx', content: Buffer): Promise<string[][]> => withReaderSlot(() => runReader(kind, content));

function runReader(kind: 'csv' | 'xlsx', content: Buffer): Promise<string[][]> {
  return new Promise((resolve, reject) => {
    const reader = startReader(kind);
    let refusal: AppError | undefined;
    const stop = (error: AppError) => {
      refusal ??= error;
      reader.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(refuse(IMPORT_MESSAGES.tooSlow, 413)), IMPORT_LIMITS.seconds * 1000);
    // The answer is read into one buffer of at most its limit: a reader that writes more is stopped.
    const answer = new Uint8Array(1 + IMPORT_LIMITS.resultBytes);
    let size = 0;
    reader.stdout?.on('data', (chunk: Buffer) => {
      if (size + chunk.length > answer.length) return stop(refuse(IMPORT_MESSAGES.unreadable));
      answer.set(chunk, size);
      size += chunk.length;
    });
    let stderr = '';
    reader.stderr?.setEncoding('utf8');
    reader.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT);
    });
    // A reader gone early (out of memory) breaks the pipe: its exit says why.
    reader.stdin?.on('error', () => undefined);
    reader.stdin?.end(content);
    reader.on('error', () => stop(refuse(IMPORT_MESSAGES.unreadable)));
    // The answer is taken once the reader is gone, so that its memory is free before the next file takes its turn.
    reader.on('close', (code, signal) => {
      clearTimeout(timer);
      // Past its heap limit V8 aborts the reader, saying so on stderr; the server's own memory is untouched.
      if (!refusal && code !== 0) {
        const outOfMemory = signal === 'SIGABRT' || /heap limit|out of memory/i.test(stderr);
        refusal = outOfMemory ? refuse(IMPORT_MESSAGES.tooHeavy, 413) : refuse(IMPORT_MESSAGES.unreadable);
      }
      if (refusal) return reject(refusal);
      outcomeOf(answer.subarray(0, size)).then((outcome) => (outcome instanceof AppError ? reject(outcome) : resolve(outcome)), reject);
    });
  });
}
