import { Readable } from 'node:stream';
import type { ImportPreview, ImportRow } from '@reformes/domain';
import type { FastifyReply } from 'fastify';

/** Items written per piece of the answer: ~0.5 MB of JSON, a few milliseconds of the event loop. */
const ITEMS_PER_PIECE = 1000;

async function* piecesOf(message: string, preview: ImportPreview, rows?: ReadonlyArray<ImportRow>): AsyncGenerator<Buffer> {
  const { reformes, valid, validLines, issues } = preview;
  yield Buffer.from(`{"message":${JSON.stringify(message)},"data":${JSON.stringify({ reformes, valid, validLines }).slice(0, -1)}`);
  const lists: Array<[string, ReadonlyArray<unknown>]> = [['issues', issues]];
  if (rows) lists.push(['rows', rows]);
  for (const [name, items] of lists) {
    yield Buffer.from(`,"${name}":[`);
    for (let from = 0; from < items.length; from += ITEMS_PER_PIECE) {
      const piece = JSON.stringify(items.slice(from, from + ITEMS_PER_PIECE)).slice(1, -1);
      yield Buffer.from(from === 0 ? piece : `,${piece}`);
      // The next piece waits for the next turn of the event loop.
      await new Promise(setImmediate);
    }
    yield Buffer.from(']');
  }
  yield Buffer.from('}}');
}

/**
 * An import's answer (`importPreviewShape`, with `rows` for a file's preview) written as JSON a piece at a time
 * (issue 40): 20 000 lines and 80 000 issues are ~25 MB of JSON. Checking it against its shape first (the response
 * serializer) copied it whole and held the event loop; its shape is the domain's types, checked by the import's tests
 * (`import.routes.test.ts`) instead.
 */
export function sendImportAnswer(
  reply: FastifyReply,
  message: string,
  preview: ImportPreview,
  rows?: ReadonlyArray<ImportRow>,
): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(Readable.from(piecesOf(message, preview, rows), { objectMode: false }));
}
