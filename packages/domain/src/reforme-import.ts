import { frenchInteger } from './numbers.ts';
import { permissionName } from './permissions.ts';
import { objectifSchema, type Reforme, reformeSchema, resultatSchema } from './reforme.ts';
import { ETATS_MOR, REFORME_MESSAGES, REFORME_TYPES } from './reforme-rules.ts';
import { normalizeSearchText, normalizeSearchText as normalizeText } from './search-text.ts';
import { z } from './zod-locale.ts';

/**
 * Import of reforms with their objectives and expected results (issue 17) from a CSV or xlsx sheet: one line per
 * expected result. A line whose "Réforme" is blank, or the same as the line above, adds to that reform; its other
 * reform columns stay blank (or repeat the first line's). Same for "Objectif" within a reform.
 */
export const IMPORT_COLUMNS = [
  { key: 'libref', label: 'Réforme', required: true },
  { key: 'typeref', label: 'Type de réforme', required: true },
  { key: 'structure', label: 'Structure', required: true },
  { key: 'nature', label: 'Nature', required: true },
  { key: 'couverture', label: 'Couverture', required: true },
  { key: 'objectif_glob', label: 'Objectif global', required: true },
  { key: 'popul_cible', label: 'Population cible', required: true },
  { key: 'struct_impl', label: 'Structures impliquées', required: true },
  { key: 'date_debut', label: 'Date début', required: true },
  { key: 'date_fin', label: 'Date fin', required: true },
  { key: 'cadreinst_mor', label: 'Cadre institutionnel', required: false },
  { key: 'etat_mor', label: 'Etat de mise en œuvre', required: false },
  { key: 'montant_prevu', label: 'Montant prévu', required: false },
  { key: 'montant_trealise', label: 'Montant réalisé', required: false },
  { key: 'libobjectif', label: 'Objectif', required: false },
  { key: 'libresult', label: 'Résultat attendu', required: false },
  { key: 'indicateur', label: 'Indicateur', required: false },
  { key: 'valeur_cible', label: 'Valeur cible', required: false },
  { key: 'valeurref', label: 'Valeur de référence', required: false },
] as const;

export type ImportColumnKey = (typeof IMPORT_COLUMNS)[number]['key'];
export type ImportCells = Partial<Record<ImportColumnKey, string>>;

/** A line of the sheet as read: its number in the file (the header is line 1) and its cells by column. */
export const importRowSchema = z.object({
  line: z.number().int().positive(),
  cells: z.partialRecord(z.enum(IMPORT_COLUMNS.map((column) => column.key)), z.string().max(10_000)),
});
export type ImportRow = z.infer<typeof importRowSchema>;

/** At most this many lines in one file: 10 000 import in well under a minute (docs/performance.md). */
export const IMPORT_MAX_ROWS = 20_000;
/** Larger files are refused before they are read. */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
/**
 * What reading a file may cost, checked while it is read (issue 28): an upload under 10 MB can still unzip to
 * gigabytes or hold millions of cells. 20 000 lines of 30 filled columns pass; the template has 19.
 */
export const IMPORT_LIMITS = {
  /** Bytes actually inflated from the workbook's zip entries, whatever their headers declare. */
  unzippedBytes: 100 * 1024 * 1024,
  /** Files inside the workbook's zip (a workbook from Excel holds about ten). */
  zipEntries: 1000,
  columns: 100,
  /** Characters in one cell: what a line's cell may hold (`importRowSchema`). */
  cellLength: 10_000,
  cells: 600_000,
  /**
   * Bytes of everything the reading hands back to the server (issue 40): the cells' text in UTF-8, 4 bytes more per
   * cell and 8 per line. Many cells can show one long shared string: the text is counted cell by cell, as read.
   * 20 000 lines of the template's 19 columns, 500 characters a line, pass.
   */
  resultBytes: 12 * 1024 * 1024,
  /** Wall-clock time of the reading, in seconds. */
  seconds: 20,
  /** Files read at once (each in its own worker, up to 128 MB of heap), and files waiting their turn. */
  readers: 2,
  waiting: 8,
} as const;

const thousands = (count: number) => frenchInteger(count).replace(/\s/g, ' ');

export const importRowsSchema = z.object({
  rows: z
    .array(importRowSchema)
    .min(1, { error: 'Le fichier ne contient aucune ligne à importer.' })
    .max(IMPORT_MAX_ROWS, { error: `Un import compte au plus ${IMPORT_MAX_ROWS} lignes.` }),
});

export const IMPORT_MESSAGES = {
  title: 'Importer des réformes',
  empty: 'Le fichier ne contient aucune ligne à importer.',
  tooLarge: `Le fichier dépasse ${IMPORT_MAX_BYTES / 1024 / 1024} Mo.`,
  tooManyRows: `Le fichier dépasse ${thousands(IMPORT_MAX_ROWS)} lignes.`,
  unzippedTooLarge: `Le classeur décompressé dépasse ${IMPORT_LIMITS.unzippedBytes / 1024 / 1024} Mo : enregistrez-le en CSV ou découpez-le.`,
  tooManyEntries: `Le classeur contient plus de ${IMPORT_LIMITS.zipEntries} fichiers internes : ce n'est pas un classeur Excel ordinaire.`,
  tooManyColumns: `Le fichier dépasse ${IMPORT_LIMITS.columns} colonnes.`,
  tooManyCells: `Le fichier dépasse ${thousands(IMPORT_LIMITS.cells)} cellules remplies.`,
  tooMuchText: `Le texte des cellules du fichier dépasse ${IMPORT_LIMITS.resultBytes / 1024 / 1024} Mo une fois lu : découpez-le.`,
  cellTooLong: (line: number) => `La ligne ${line} contient une cellule de plus de ${thousands(IMPORT_LIMITS.cellLength)} caractères.`,
  tooHeavy: 'Le fichier demande trop de mémoire pour être lu : enregistrez-le en CSV ou découpez-le.',
  busy: "Trop d'imports sont en cours de lecture : réessayez dans un instant.",
  tooSlow: `La lecture du fichier dépasse ${IMPORT_LIMITS.seconds} secondes : enregistrez-le en CSV ou découpez-le.`,
  kind: 'Choisissez un fichier CSV (.csv) ou Excel (.xlsx).',
  macro: 'Les classeurs contenant des macros ne sont pas acceptés : enregistrez-le au format .xlsx sans macro.',
  encoding: "Le fichier CSV n'est pas encodé en UTF-8 : enregistrez-le en « CSV UTF-8 ».",
  unreadable: "Le fichier n'a pas pu être lu : est-ce bien un fichier CSV ou Excel (.xlsx) ?",
  nothingValid: 'Aucune réforme sans erreur à importer : corrigez ou retirez les lignes en erreur.',
  imported: (count: number) => `${count} réforme(s) importée(s) avec succès`,
  unknownColumns: (labels: string[]) => `Colonne(s) inconnue(s) : ${labels.join(', ')}.`,
  missingColumns: (labels: string[]) => `Colonne(s) manquante(s) : ${labels.join(', ')}.`,
  unknownReference: (what: string, value: string) => `${what} inconnue : « ${value} »`,
  continuation: (line: number) =>
    `Cette ligne complète la réforme de la ligne ${line} : laissez vides ses autres colonnes de réforme, ou répétez-les à l'identique.`,
  noReforme: REFORME_MESSAGES.libref,
} as const;

/** The right that opens the import; by default the roles that record reforms for any structure hold it. */
export const IMPORT_RIGHT = { feature: 'reformes-import', action: 'add' } as const;
/** Whether rights held (`features` of the sign-in answer) open the import. */
export const canImportReformes = (features: readonly string[]) =>
  features.includes(permissionName(IMPORT_RIGHT.feature, IMPORT_RIGHT.action));

const COLUMN_BY_LABEL = new Map<string, ImportColumnKey>(IMPORT_COLUMNS.map((column) => [normalizeSearchText(column.label), column.key]));
const LABEL_OF = Object.fromEntries(IMPORT_COLUMNS.map((column) => [column.key, column.label])) as Record<ImportColumnKey, string>;

/** The header line -> the column of each cell; unknown or missing columns are a file error, nothing is read. */
export function columnsOfHeader(header: string[]): { columns: Array<ImportColumnKey | null>; error?: string } {
  const columns = header.map((label) => (label.trim() === '' ? null : (COLUMN_BY_LABEL.get(normalizeSearchText(label)) ?? null)));
  const unknown = header.filter((label, index) => label.trim() !== '' && columns[index] === null);
  if (unknown.length > 0) return { columns, error: IMPORT_MESSAGES.unknownColumns(unknown) };
  const missing = IMPORT_COLUMNS.filter((column) => column.required && !columns.includes(column.key)).map((column) => column.label);
  if (missing.length > 0) return { columns, error: IMPORT_MESSAGES.missingColumns(missing) };
  return { columns };
}

/**
 * The lines after the header, each with its cells by column; wholly blank lines are skipped. `from`: the index of
 * `lines[0]` among the sheet's lines after the header, when they are read a slice at a time.
 */
export function rowsOfSheet(lines: string[][], columns: Array<ImportColumnKey | null>, from = 0): ImportRow[] {
  const rows: ImportRow[] = [];
  lines.forEach((values, index) => {
    const cells: ImportCells = {};
    let filled = false;
    values.forEach((value, column) => {
      const key = columns[column];
      const text = key ? value.trim() : '';
      if (key && text !== '') {
        cells[key] = text;
        filled = true;
      }
    });
    if (filled) rows.push({ line: from + index + 2, cells });
  });
  return rows;
}

export interface ImportReferences {
  natures: ReadonlyArray<{ id: number; libnature: string }>;
  couvertures: ReadonlyArray<{ id: number; lib_couvert: string }>;
  structures: ReadonlyArray<{ id: number; sigl: string; designation: string }>;
}

export interface ImportIssue {
  line: number;
  /** The column's label as in the file, or '' for the whole line. */
  column: string;
  message: string;
}

export interface PlannedResultat {
  libresult: string;
  indicateur: string;
  valeur_cible: number;
  valeurref: number;
}

export interface PlannedReforme {
  /** The lines it was read from, first one first. */
  lines: number[];
  reforme: Reforme & { structure_id: number };
  objectifs: Array<{ libobjectif: string; results: PlannedResultat[] }>;
}

export interface ImportPlan {
  /** The reforms without any issue on any of their lines: what an import writes. */
  valid: PlannedReforme[];
  /** Every issue, by line then column order. */
  issues: ImportIssue[];
  /** Reforms found in the file, valid or not. */
  reformes: number;
}

const REFORME_KEYS = IMPORT_COLUMNS.slice(0, 14).map((column) => column.key);
const RESULT_KEYS = ['libresult', 'indicateur', 'valeur_cible', 'valeurref'] as const;

/** "15/01/2026", "15-01-2026" or "2026-01-15" -> "2026-01-15"; anything else unchanged (the schema names it). */
export function isoDateOfCell(text: string): string {
  const french = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(text.trim());
  if (french) return `${french[3]}-${french[2].padStart(2, '0')}-${french[1].padStart(2, '0')}`;
  return text.trim();
}

function byName<Row>(rows: ReadonlyArray<Row>, names: (row: Row) => string[]): Map<string, Row> {
  const map = new Map<string, Row>();
  for (const row of rows) for (const name of names(row)) map.set(normalizeSearchText(name), row);
  return map;
}

const TYPE_BY_NAME = new Map(REFORME_TYPES.map((type) => [normalizeSearchText(type), type]));
const ETAT_BY_NAME = new Map(
  ETATS_MOR.flatMap((etat) => [[normalizeSearchText(etat.label), etat.value] as const, [etat.value, etat.value] as const]),
);
const resultFields = resultatSchema.omit({ objectif_id: true });
const libobjectifField = objectifSchema.shape.libobjectif;

/**
 * Reads the lines into reforms, objectives and results with the form's own rules (`reformeSchema`,
 * `objectifSchema`, `resultatSchema`), names and codes matched to the reference lists without regard to case or
 * accents. The server runs it before writing; the preview shows its issues.
 */
export function planImport(rows: ReadonlyArray<ImportRow>, references: ImportReferences): ImportPlan {
  const planner = importPlanner(references);
  for (const row of rows) planner.add(row);
  return planner.plan();
}

/**
 * `planImport` a few milliseconds at a time (issue 40): 20 000 lines take seconds of CPU, and a server must answer
 * others meanwhile. `pause` hands the event loop over (on Node `() => new Promise(setImmediate)`).
 */
export async function planImportInTurns(
  rows: ReadonlyArray<ImportRow>,
  references: ImportReferences,
  pause: () => Promise<void>,
  turnMs = 10,
): Promise<ImportPlan> {
  const planner = importPlanner(references);
  let turn = Date.now();
  for (let index = 0; index < rows.length; index += 1) {
    planner.add(rows[index]);
    if (index % 20 === 19 && Date.now() - turn > turnMs) {
      await pause();
      turn = Date.now();
    }
  }
  return planner.plan();
}

/** The lines one by one, then the plan: what `planImport` and `planImportInTurns` share. */
function importPlanner(references: ImportReferences) {
  // Each distinct text is normalised once per plan: most cells repeat (names, types, states, objectives).
  const known = new Map<string, string>();
  const normalizeSearchText = (text: string) => {
    let normal = known.get(text);
    if (normal === undefined) {
      normal = normalizeText(text);
      known.set(text, normal);
    }
    return normal;
  };
  const natures = byName(references.natures, (row) => [row.libnature]);
  const couvertures = byName(references.couvertures, (row) => [row.lib_couvert]);
  const structures = byName(references.structures, (row) => [row.sigl, row.designation]);
  const issues: ImportIssue[] = [];
  const planned: Array<PlannedReforme & { failed: boolean }> = [];
  let current: (PlannedReforme & { failed: boolean; first: ImportCells; name: string }) | undefined;
  let objectif: PlannedReforme['objectifs'][number] | undefined;
  // The objectives of the current reform by normalised name: a reform of 20 000 objectives is not searched 20 000² times.
  let objectifByName = new Map<string, PlannedReforme['objectifs'][number]>();

  function add({ line, cells }: ImportRow): void {
    const before = issues.length;
    const say = (key: ImportColumnKey | '', message: string) => issues.push({ line, column: key ? LABEL_OF[key] : '', message });
    const label = cells.libref ?? '';
    const name = label === '' ? '' : normalizeSearchText(label);
    const continues = current !== undefined && (label === '' || name === current.name);

    if (!continues) {
      if (label === '') {
        say('libref', IMPORT_MESSAGES.noReforme);
        current = undefined;
        return;
      }
      const reforme = readReforme(cells, { natures, couvertures, structures }, say, normalizeSearchText);
      current = {
        lines: [line],
        reforme: reforme as PlannedReforme['reforme'],
        objectifs: [],
        failed: false,
        first: cells,
        name,
      };
      planned.push(current);
      objectif = undefined;
      objectifByName = new Map();
    } else if (current) {
      current.lines.push(line);
      const first = current.first;
      const differs = REFORME_KEYS.some((key) => key !== 'libref' && cells[key] !== undefined && cells[key] !== first[key]);
      if (differs) say('', IMPORT_MESSAGES.continuation(current.lines[0]));
    }
    if (!current) return;

    if (cells.libobjectif) {
      const parsed = libobjectifField.safeParse(cells.libobjectif);
      if (!parsed.success) say('libobjectif', parsed.error.issues[0].message);
      else {
        const objectifName = normalizeSearchText(parsed.data);
        objectif = objectifByName.get(objectifName);
        if (!objectif) {
          objectif = { libobjectif: parsed.data, results: [] };
          current.objectifs.push(objectif);
          objectifByName.set(objectifName, objectif);
        }
      }
    }
    if (RESULT_KEYS.some((key) => cells[key] !== undefined)) {
      const parsed = resultFields.safeParse(Object.fromEntries(RESULT_KEYS.map((key) => [key, cells[key] ?? ''])));
      if (!objectif && !cells.libobjectif) say('libobjectif', "Le Libellé de l'objectif est requis");
      if (!parsed.success) for (const issue of parsed.error.issues) say(issue.path[0] as ImportColumnKey, issue.message);
      else if (objectif) objectif.results.push(parsed.data as PlannedResultat);
    }
    if (issues.length > before) current.failed = true;
  }

  return {
    add,
    plan: (): ImportPlan => ({
      valid: planned.filter((reforme) => !reforme.failed).map(({ lines, reforme, objectifs }) => ({ lines, reforme, objectifs })),
      issues,
      reformes: planned.length,
    }),
  };
}

interface ReferenceMaps {
  natures: Map<string, { id: number }>;
  couvertures: Map<string, { id: number }>;
  structures: Map<string, { id: number }>;
}

/** The reform columns of a first line through the form's schema; unknown names are said as such. */
function readReforme(
  cells: ImportCells,
  maps: ReferenceMaps,
  say: (key: ImportColumnKey, message: string) => void,
  normalizeSearchText: (text: string) => string,
): Reforme | undefined {
  const lookup = (key: 'nature' | 'couverture' | 'structure', map: Map<string, { id: number }>, what: string) => {
    const text = cells[key];
    if (!text) return undefined;
    const found = map.get(normalizeSearchText(text));
    if (!found) say(key, IMPORT_MESSAGES.unknownReference(what, text));
    return found ? found.id : null;
  };
  const nature_id = lookup('nature', maps.natures, 'Nature');
  const couverture_id = lookup('couverture', maps.couvertures, 'Couverture');
  const structure_id = lookup('structure', maps.structures, 'Structure');
  const parsed = reformeSchema.safeParse({
    libref: cells.libref ?? '',
    typeref: TYPE_BY_NAME.get(normalizeSearchText(cells.typeref ?? '')) ?? cells.typeref ?? '',
    nature_id: nature_id ?? '',
    couverture_id: couverture_id ?? '',
    structure_id: structure_id ?? '',
    objectif_glob: cells.objectif_glob ?? '',
    popul_cible: cells.popul_cible ?? '',
    struct_impl: cells.struct_impl ?? '',
    date_debut: isoDateOfCell(cells.date_debut ?? ''),
    date_fin: isoDateOfCell(cells.date_fin ?? ''),
    cadreinst_mor: cells.cadreinst_mor ?? '',
    etat_mor: cells.etat_mor ? (ETAT_BY_NAME.get(normalizeSearchText(cells.etat_mor)) ?? cells.etat_mor) : '',
    montant_prevu: cells.montant_prevu ?? '',
    montant_trealise: cells.montant_trealise ?? '',
  });
  const COLUMN_OF: Record<string, ImportColumnKey> = {
    nature_id: 'nature',
    couverture_id: 'couverture',
    structure_id: 'structure',
    periodexe: 'date_debut',
  };
  if (parsed.success) {
    if (structure_id === undefined) say('structure', REFORME_MESSAGES.structure_id);
    return parsed.data;
  }
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? '');
    const key = (COLUMN_OF[field] ?? field) as ImportColumnKey;
    // An unknown name already has its message; a blank one gets the schema's.
    if (
      (key === 'nature' && nature_id === null) ||
      (key === 'couverture' && couverture_id === null) ||
      (key === 'structure' && structure_id === null)
    )
      continue;
    // The period message repeats the dates' own when one is blank.
    if (field === 'periodexe' && (!cells.date_debut || !cells.date_fin)) continue;
    say(key, issue.message);
  }
  if (structure_id === undefined && !parsed.error.issues.some((issue) => issue.path[0] === 'structure_id'))
    say('structure', REFORME_MESSAGES.structure_id);
  return undefined;
}

/** The template's header and one example line (what "Télécharger le modèle" gives). */
export const IMPORT_TEMPLATE: { header: string[]; example: string[] } = {
  header: IMPORT_COLUMNS.map((column) => column.label),
  example: [
    'Guichet unique des entreprises',
    'Sectorielle',
    'MS',
    'Structurelle',
    'Nationale',
    'Réduire les délais de création des entreprises',
    'Entreprises',
    'Ministère de la Santé',
    '01/03/2026',
    '31/12/2027',
    'Comité de pilotage',
    'En cours',
    '150000',
    '',
    'Simplifier les démarches',
    'Démarches en ligne',
    'Taux de dématérialisation (%)',
    '100',
    '20',
  ],
};
