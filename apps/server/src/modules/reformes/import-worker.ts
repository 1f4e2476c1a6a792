import { IMPORT_MAX_BYTES, IMPORT_MESSAGES } from '@reformes/domain';
import { readCsv, readWorkbook, SheetError } from './import-sheet.ts';

/**
 * Reads one uploaded sheet in a process of its own (issues 28 and 40), under the memory and time limits
 * `import-file.ts` gives it: the file comes on stdin, its kind (`csv`, `xlsx`) as argument. Answers once on stdout:
 * `L` then the lines' buffer (`import-lines.ts`, at most `IMPORT_LIMITS.resultBytes`), or `R` then a refusal
 * `{ status, message }` in JSON, its message cut to `MESSAGE_LENGTH` characters. Nothing it answers is larger than
 * its limits, however many cells show the same text, and none of its memory is the server's.
 */
const MESSAGE_LENGTH = 1000;

async function answerOf(): Promise<Buffer> {
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin) {
      size += (chunk as Buffer).length;
      if (size > IMPORT_MAX_BYTES) throw new SheetError(413, IMPORT_MESSAGES.tooLarge);
      chunks.push(chunk as Buffer);
    }
    const content = Buffer.concat(chunks);
    const lines = process.argv[2] === 'csv' ? readCsv(content) : await readWorkbook(content);
    return Buffer.concat([Buffer.from('L'), lines]);
  } catch (error) {
    const refusal = error instanceof SheetError ? error : new SheetError(422, IMPORT_MESSAGES.unreadable);
    return Buffer.from(`R${JSON.stringify({ status: refusal.status, message: refusal.message.slice(0, MESSAGE_LENGTH) })}`);
  }
}

const answer = await answerOf();
// exceljs may leave a temporary file's handle open: the process ends once its answer is written.
process.stdout.write(answer, () => process.exit(0));
