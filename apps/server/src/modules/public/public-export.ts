import { Readable } from 'node:stream';
import { ETATS_MOR } from '@reformes/domain';
import { CSV_BOM, csvLine } from '../../http/csv.ts';
import type { PublicRow } from './public.service.ts';

/** Open-data columns, French headers (UTF-8). */
const OPEN_DATA_COLUMNS: Array<[string, (row: PublicRow) => string | number | null]> = [
  ['Identifiant', (row) => row.id],
  ['Libellé', (row) => row.libref],
  ['Type', (row) => row.typeref],
  ['Nature', (row) => row.nature.libnature],
  ['Couverture', (row) => row.couverture.lib_couvert],
  ['Structure', (row) => row.structure.designation],
  ['Période', (row) => row.periodexe],
  ['Date début', (row) => row.date_debut],
  ['Date fin', (row) => row.date_fin],
  ['État', (row) => ETATS_MOR.find((etat) => etat.value === row.etat_mor)?.label ?? ''],
  ['Objectif global', (row) => row.objectif_glob],
  ['Population cible', (row) => row.popul_cible],
  ['Structures impliquées', (row) => row.struct_impl],
  ['Montant prévu (EUR)', (row) => row.montant_prevu],
  ['Montant réalisé (EUR)', (row) => row.montant_trealise],
];

/** One reform as an element of the JSON array, indented as `JSON.stringify(all, null, 2)` would write it. */
function jsonElement(row: PublicRow): string {
  const record = Object.fromEntries(OPEN_DATA_COLUMNS.map(([header, read]) => [header, read(row)]));
  // Strings never hold a raw line break in JSON, so every line break is one of the indentation.
  return `  ${JSON.stringify(record, null, 2).replaceAll('\n', '\n  ')}`;
}

/** Rows written per chunk: a batch of long texts is never copied whole into one string. */
const ROWS_PER_CHUNK = 50;

function* slicesOf(rows: PublicRow[]): Generator<PublicRow[]> {
  for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK) yield rows.slice(start, start + ROWS_PER_CHUNK);
}

/** The JSON array, a few rows at a time: byte for byte what `JSON.stringify(rows, null, 2)` gives. */
export function openDataJson(batches: AsyncIterable<PublicRow[]>): Readable {
  return Readable.from(
    (async function* () {
      let isOpen = false;
      for await (const batch of batches) {
        for (const rows of slicesOf(batch)) {
          yield (isOpen ? ',\n' : '[\n') + rows.map(jsonElement).join(',\n');
          isOpen = true;
        }
      }
      yield isOpen ? '\n]' : '[]';
    })(),
    { objectMode: false },
  );
}

/** The CSV, a few rows at a time (UTF-8 with BOM, ';', formula-safe cells). */
export function openDataCsv(batches: AsyncIterable<PublicRow[]>): Readable {
  return Readable.from(
    (async function* () {
      // The byte-order mark lets spreadsheet software read the accents as UTF-8.
      yield CSV_BOM + csvLine(OPEN_DATA_COLUMNS.map(([header]) => header));
      for await (const batch of batches) {
        for (const rows of slicesOf(batch)) yield rows.map((row) => csvLine(OPEN_DATA_COLUMNS.map(([, read]) => read(row)))).join('');
      }
    })(),
    { objectMode: false },
  );
}

/** Whether `If-None-Match` (`"a", W/"b"` or `*`) names `etag`: the weak comparison of RFC 9110 §13.1.2. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}
