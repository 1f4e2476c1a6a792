import {
  columnsOfHeader,
  IMPORT_MAX_BYTES,
  IMPORT_MESSAGES,
  IMPORT_TEMPLATE,
  type ImportRow,
  MESSAGES,
  REFORME_IMPORT_ROUTES as ROUTES,
  rowsOfSheet,
} from '@reformes/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../http/app-error.ts';
import { CSV_BOM, csvLine } from '../../http/csv.ts';
import { authOf } from '../../http/guard.ts';
import { readUpload } from '../../http/multipart.ts';
import { routeTable } from '../../http/route-table.ts';
import type { ImportService } from './import.service.ts';
import { sendImportAnswer } from './import-answer.ts';
import { readSheet } from './import-file.ts';

// 20 000 lines of 19 columns sent back as JSON: well above the API's 1 MB default.
const ROWS_BODY_LIMIT = 32 * 1024 * 1024;
/** Lines of a sheet made into rows per turn of the event loop. */
const LINES_PER_TURN = 2000;

/**
 * The uploaded file's lines as rows. A function of its own: the file and its lines are no longer held once the rows
 * are made, while they are planned and answered (issue 40).
 */
async function rowsOfUpload(request: FastifyRequest): Promise<ImportRow[]> {
  const { file } = await readUpload(request, {
    maxBytes: IMPORT_MAX_BYTES,
    notMultipart: () => new AppError(415, IMPORT_MESSAGES.kind),
  });
  if (!file || file.content.length === 0) throw new AppError(422, IMPORT_MESSAGES.empty);
  const lines = await readSheet(file.filename, file.content);
  const { columns, error } = columnsOfHeader(lines[0] ?? []);
  if (error) throw new AppError(422, error);
  // A slice of lines at a time: 20 000 lines are ~100 ms of work, the server answers others in between.
  const rows: ImportRow[] = [];
  for (let from = 1; from < lines.length; from += LINES_PER_TURN) {
    rows.push(...rowsOfSheet(lines.slice(from, from + LINES_PER_TURN), columns, from - 1));
    await new Promise(setImmediate);
  }
  if (rows.length === 0) throw new AppError(422, IMPORT_MESSAGES.empty);
  return rows;
}

/** The handlers of REFORME_IMPORT_ROUTES (packages/domain/src/routes/reforme-import.ts): the import of issue 17. */
export const importRoutes: FastifyPluginAsyncZod<{ imports: ImportService }> = async (app, { imports }) => {
  const on = routeTable(app);
  on(ROUTES.preview, async (request, reply) => {
    const rows = await rowsOfUpload(request);
    return sendImportAnswer(reply, MESSAGES.success, await imports.preview(rows), rows) as never;
  });

  on(ROUTES.check, async (request, reply) => sendImportAnswer(reply, MESSAGES.success, await imports.preview(request.body.rows)) as never, {
    bodyLimit: ROWS_BODY_LIMIT,
  });

  on(
    ROUTES.commit,
    async (request, reply) => {
      const result = await imports.commit(authOf(request), request.body.rows);
      return sendImportAnswer(reply, IMPORT_MESSAGES.imported(result.valid), result) as never;
    },
    { bodyLimit: ROWS_BODY_LIMIT },
  );

  on(ROUTES.templateCsv, async (_request, reply) =>
    reply
      .header('Content-Type', ROUTES.templateCsv.file)
      .header('Content-Disposition', 'attachment; filename="modele-import-reformes.csv"')
      .send(CSV_BOM + csvLine(IMPORT_TEMPLATE.header) + csvLine(IMPORT_TEMPLATE.example)),
  );

  on(ROUTES.templateXlsx, async (_request, reply) => {
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Réformes', { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = IMPORT_TEMPLATE.header.map((header) => ({ header, width: Math.max(14, header.length + 4) }));
    sheet.getRow(1).font = { bold: true };
    sheet.addRow(IMPORT_TEMPLATE.example);
    // Dates and amounts as text: what the file says is what the preview reads.
    sheet.eachRow((row) => row.eachCell((cell) => (cell.numFmt = '@')));
    return reply
      .header('Content-Type', ROUTES.templateXlsx.file)
      .header('Content-Disposition', 'attachment; filename="modele-import-reformes.xlsx"')
      .send(Buffer.from(await workbook.xlsx.writeBuffer()));
  });
};
