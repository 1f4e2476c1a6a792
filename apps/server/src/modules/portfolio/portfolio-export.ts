import { PassThrough, Readable } from 'node:stream';
import { ETATS_MOR, PORTFOLIO_MESSAGES, type PortfolioRow, portfolioStatusLabel, typeLabel } from '@reformes/domain';
import { CSV_BOM, csvLine } from '../../http/csv.ts';

type Cell = string | number | null;

/** The columns of both export files, in the overview's words (a percentage as a number, for sorting). */
const COLUMNS: Array<{ header: string; width: number; read: (row: PortfolioRow) => Cell }> = [
  { header: 'Réforme', width: 48, read: (row) => row.libref },
  { header: 'Structure', width: 14, read: (row) => row.structure },
  { header: 'Nature', width: 18, read: (row) => row.nature },
  { header: 'Type', width: 14, read: (row) => typeLabel(row.typeref) },
  { header: 'Date début', width: 12, read: (row) => row.date_debut },
  { header: 'Date fin', width: 12, read: (row) => row.date_fin },
  { header: 'État', width: 14, read: (row) => ETATS_MOR.find((etat) => etat.value === row.etat_mor)?.label ?? '' },
  { header: PORTFOLIO_MESSAGES.status, width: 26, read: (row) => portfolioStatusLabel(row) },
  { header: `${PORTFOLIO_MESSAGES.progress} (%)`, width: 12, read: (row) => Math.round(row.progress * 1000) / 10 },
  { header: 'Résultats validés', width: 10, read: (row) => row.results_validated },
  { header: 'Résultats', width: 10, read: (row) => row.results_total },
  { header: PORTFOLIO_MESSAGES.lastSuivi, width: 12, read: (row) => row.last_suivi_date },
];

/** The CSV of the overview, line by line as the batches arrive (UTF-8 with BOM, ';', formula-safe cells). */
export function portfolioCsv(batches: AsyncIterable<PortfolioRow[]>): Readable {
  return Readable.from(
    (async function* () {
      yield CSV_BOM + csvLine(COLUMNS.map((column) => column.header));
      for await (const rows of batches) yield rows.map((row) => csvLine(COLUMNS.map((column) => column.read(row)))).join('');
    })(),
    { objectMode: false },
  );
}

/**
 * The xlsx of the overview, written by exceljs's streaming writer: each row is committed (and leaves memory)
 * as soon as it is written, so 100 000 reforms never sit in memory at once. exceljs is loaded on the first
 * export only: its import alone adds about 28 MB of resident memory that an idle server has no use for.
 */
export function portfolioXlsx(batches: AsyncIterable<PortfolioRow[]>): Readable {
  const output = new PassThrough();
  (async () => {
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
    const sheet = workbook.addWorksheet(PORTFOLIO_MESSAGES.sheetName, { views: [{ state: 'frozen', ySplit: 1 }] });
    sheet.columns = COLUMNS.map((column) => ({ header: column.header, width: column.width }));
    sheet.getRow(1).font = { bold: true };
    for await (const rows of batches) {
      for (const row of rows) sheet.addRow(COLUMNS.map((column) => column.read(row))).commit();
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => output.destroy(error as Error));
  return output;
}
