import {
  columnsOfHeader,
  envelopeShape,
  IMPORT_MAX_BYTES,
  IMPORT_MESSAGES,
  IMPORT_RIGHT,
  IMPORT_TEMPLATE,
  importFilePreviewShape,
  importPreviewShape,
  importRowsSchema,
  rowsOfSheet,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../http/app-error.ts';
import { CSV_BOM, csvLine } from '../../http/csv.ts';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { readUpload } from '../../http/multipart.ts';
import type { ImportService } from './import.service.ts';
import { readSheet } from './import-file.ts';

const tags = ['Import de réformes'];
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
// A right of its own (admin has no "add" on reforms, yet the issue gives it the import), which an admin may revoke.
const access = IMPORT_RIGHT;
// 20 000 lines of 19 columns sent back as JSON: well above the API's 1 MB default.
const ROWS_BODY_LIMIT = 32 * 1024 * 1024;

/**
 * Import of reforms from CSV or xlsx (issue 17): upload -> preview with every line's issues -> (lines fixed or
 * dropped on the screen, checked again) -> import of the reforms without issues in one transaction.
 */
export const importRoutes: FastifyPluginAsyncZod<{ imports: ImportService }> = async (app, { imports }) => {
  app.post(
    '/reformes/import/preview',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Lire un fichier CSV ou xlsx (multipart file) et en montrer les erreurs',
        response: { 200: envelopeShape(importFilePreviewShape) },
      },
    },
    async (request) => {
      const { file } = await readUpload(request, {
        maxBytes: IMPORT_MAX_BYTES,
        notMultipart: () => new AppError(415, IMPORT_MESSAGES.kind),
      });
      if (!file || file.content.length === 0) throw new AppError(422, IMPORT_MESSAGES.empty);
      const [header = [], ...lines] = await readSheet(file.filename, file.content);
      const { columns, error } = columnsOfHeader(header);
      if (error) throw new AppError(422, error);
      const rows = rowsOfSheet(lines, columns);
      if (rows.length === 0) throw new AppError(422, IMPORT_MESSAGES.empty);
      return ok({ rows, ...(await imports.preview(rows)) });
    },
  );

  app.post(
    '/reformes/import/check',
    {
      config: { access },
      bodyLimit: ROWS_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Vérifier des lignes corrigées',
        body: importRowsSchema,
        response: { 200: envelopeShape(importPreviewShape) },
      },
    },
    async (request) => {
      return ok(await imports.preview(request.body.rows));
    },
  );

  app.post(
    '/reformes/import',
    {
      config: { access },
      bodyLimit: ROWS_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Importer les réformes sans erreur (une transaction)',
        body: importRowsSchema,
        response: { 201: envelopeShape(importPreviewShape) },
      },
    },
    async (request, reply) => {
      const result = await imports.commit(authOf(request), request.body.rows);
      reply.status(201);
      return ok(result, IMPORT_MESSAGES.imported(result.valid));
    },
  );

  app.get(
    '/reformes/import/template.csv',
    { config: { access, fileAnswer: 'text/csv; charset=utf-8' }, schema: { tags, summary: "Modèle d'import (CSV)" } },
    async (_request, reply) => {
      return reply
        .header('Content-Type', 'text/csv; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="modele-import-reformes.csv"')
        .send(CSV_BOM + csvLine(IMPORT_TEMPLATE.header) + csvLine(IMPORT_TEMPLATE.example));
    },
  );

  app.get(
    '/reformes/import/template.xlsx',
    { config: { access, fileAnswer: XLSX_TYPE }, schema: { tags, summary: "Modèle d'import (Excel)" } },
    async (_request, reply) => {
      const { default: ExcelJS } = await import('exceljs');
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Réformes', { views: [{ state: 'frozen', ySplit: 1 }] });
      sheet.columns = IMPORT_TEMPLATE.header.map((header) => ({ header, width: Math.max(14, header.length + 4) }));
      sheet.getRow(1).font = { bold: true };
      sheet.addRow(IMPORT_TEMPLATE.example);
      // Dates and amounts as text: what the file says is what the preview reads.
      sheet.eachRow((row) => row.eachCell((cell) => (cell.numFmt = '@')));
      return reply
        .header('Content-Type', XLSX_TYPE)
        .header('Content-Disposition', 'attachment; filename="modele-import-reformes.xlsx"')
        .send(Buffer.from(await workbook.xlsx.writeBuffer()));
    },
  );
};
