import { describe, expect, it } from 'vitest';
import { isoDateField } from './reforme.ts';
import {
  columnsOfHeader,
  IMPORT_COLUMNS,
  IMPORT_MESSAGES,
  IMPORT_TEMPLATE,
  type ImportCells,
  type ImportRow,
  isoDateOfCell,
  planImport,
  planImportInTurns,
  rowsOfSheet,
} from './reforme-import.ts';

const references = {
  natures: [
    { id: 1, libnature: 'Structurelle' },
    { id: 2, libnature: 'Institutionnelle' },
  ],
  couvertures: [{ id: 5, lib_couvert: 'Nationale' }],
  structures: [{ id: 7, sigl: 'MS', designation: 'Ministère de la Santé' }],
};

const reformeCells: ImportCells = {
  libref: 'Guichet unique',
  typeref: 'Sectorielle',
  structure: 'MS',
  nature: 'structurelle',
  couverture: 'Nationale',
  objectif_glob: 'Réduire les délais',
  popul_cible: 'Entreprises',
  struct_impl: 'Ministère de la Santé',
  date_debut: '01/03/2026',
  date_fin: '2027-12-31',
};
const resultCells: ImportCells = {
  libobjectif: 'Simplifier',
  libresult: 'Démarches en ligne',
  indicateur: '%',
  valeur_cible: '100',
  valeurref: '20,5',
};

const row = (line: number, cells: ImportCells): ImportRow => ({ line, cells });

describe('columnsOfHeader', () => {
  it('reads the labels without regard to case or accents, and names unknown or missing columns', () => {
    expect(columnsOfHeader(IMPORT_TEMPLATE.header)).toEqual({ columns: IMPORT_COLUMNS.map((column) => column.key) });
    expect(columnsOfHeader(['REFORME', 'type de reforme']).error).toBe(
      'Colonne(s) manquante(s) : Structure, Nature, Couverture, Objectif global, Population cible, Structures impliquées, Date début, Date fin.',
    );
    expect(columnsOfHeader([...IMPORT_TEMPLATE.header, 'Budget', '']).error).toBe('Colonne(s) inconnue(s) : Budget.');
  });

  it('numbers the lines as the file does (header on line 1) and skips blank ones', () => {
    const { columns } = columnsOfHeader(['Réforme', 'Objectif']);
    expect(
      rowsOfSheet(
        [
          ['A', ' B '],
          ['', ''],
          ['C', ''],
        ],
        columns,
      ),
    ).toEqual([
      { line: 2, cells: { libref: 'A', libobjectif: 'B' } },
      { line: 4, cells: { libref: 'C' } },
    ]);
  });
});

describe('isoDateOfCell', () => {
  it('takes French and ISO dates', () => {
    expect(isoDateOfCell('1/3/2026')).toBe('2026-03-01');
    expect(isoDateOfCell('2026-03-01')).toBe('2026-03-01');
    expect(isoDateOfCell('mars 2026')).toBe('mars 2026');
  });
});

describe('planImport', () => {
  it('groups lines into reforms, objectives and results with the form’s rules', () => {
    const plan = planImport(
      [
        row(2, { ...reformeCells, ...resultCells }),
        row(3, { libobjectif: 'simplifier', libresult: 'Guichets', indicateur: 'Nombre', valeur_cible: '12', valeurref: '0' }),
        row(4, { libref: 'Guichet unique', libobjectif: 'Former les agents' }),
        row(5, { ...reformeCells, libref: 'Autre réforme', typeref: 'TRANSVERSALE', structure: 'Ministère de la santé' }),
      ],
      references,
    );
    expect(plan.issues).toEqual([]);
    expect(plan.reformes).toBe(2);
    const [first, second] = plan.valid;
    expect(first.lines).toEqual([2, 3, 4]);
    expect(first.reforme).toMatchObject({
      typeref: 'SECTORIELLE',
      nature_id: 1,
      couverture_id: 5,
      structure_id: 7,
      date_debut: '2026-03-01',
    });
    expect(first.objectifs).toEqual([
      {
        libobjectif: 'Simplifier',
        results: [
          { libresult: 'Démarches en ligne', indicateur: '%', valeur_cible: 100, valeurref: 20.5 },
          { libresult: 'Guichets', indicateur: 'Nombre', valeur_cible: 12, valeurref: 0 },
        ],
      },
      { libobjectif: 'Former les agents', results: [] },
    ]);
    expect(second.reforme).toMatchObject({ libref: 'Autre réforme', typeref: 'TRANSVERSALE', structure_id: 7 });
  });

  it('names each error by line and column, in French, and keeps only the reforms without any', () => {
    const plan = planImport(
      [
        row(2, { ...reformeCells, nature: 'Culturelle', date_fin: '31/02/2027', montant_prevu: '-5' }),
        row(3, { ...reformeCells, libref: 'Bonne réforme', ...resultCells, valeurref: '' }),
        row(4, { ...reformeCells, libref: 'Sans structure', structure: '' }),
        row(5, { ...reformeCells, libref: 'Valide' }),
        row(6, { libref: 'Valide', popul_cible: 'Autre population' }),
        row(7, { libresult: 'Sans objectif', indicateur: 'x', valeur_cible: '1', valeurref: '0' }),
      ],
      references,
    );
    expect(plan.issues).toEqual([
      { line: 2, column: 'Nature', message: 'Nature inconnue : « Culturelle »' },
      { line: 2, column: 'Date fin', message: expect.any(String) },
      { line: 2, column: 'Montant prévu', message: expect.any(String) },
      { line: 3, column: 'Valeur de référence', message: 'La valeur référence est requise est requise' },
      { line: 4, column: 'Structure', message: 'La structure est requise' },
      {
        line: 6,
        column: '',
        message:
          "Cette ligne complète la réforme de la ligne 5 : laissez vides ses autres colonnes de réforme, ou répétez-les à l'identique.",
      },
      { line: 7, column: 'Objectif', message: "Le Libellé de l'objectif est requis" },
    ]);
    expect(plan.reformes).toBe(4);
    expect(plan.valid).toEqual([]);
  });

  it('plans the same a few lines at a time, handing over between turns (issue 40)', async () => {
    const rows = Array.from({ length: 400 }, (_, index) =>
      row(
        index + 2,
        index % 3 === 0 ? { ...reformeCells, libref: `Réforme ${index}`, nature: index % 2 ? 'Inconnue' : 'structurelle' } : resultCells,
      ),
    );
    let pauses = 0;
    const inTurns = await planImportInTurns(
      rows,
      references,
      async () => {
        pauses += 1;
      },
      -1,
    );
    expect(inTurns).toEqual(planImport(rows, references));
    expect(pauses).toBe(20);
  });

  it('finds an objective again among thousands in one reform without searching them all (issue 40)', () => {
    const rows = [
      row(2, { ...reformeCells, ...resultCells }),
      ...Array.from({ length: 20_000 }, (_, index) => row(index + 3, { libobjectif: `Objectif n° ${index % 10_000}` })),
    ];
    const started = Date.now();
    const [planned] = planImport(rows, references).valid;
    expect(planned.objectifs).toHaveLength(10_001);
    expect(planned.lines).toHaveLength(20_001);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('says a first line without a reform label is not read', () => {
    expect(planImport([row(2, { libobjectif: 'Seul' })], references).issues).toEqual([
      { line: 2, column: 'Réforme', message: 'Le Libellé de la réforme est requis' },
    ]);
  });
});

describe('import limits', () => {
  it('name each limit in French, numbers written the French way', () => {
    expect(IMPORT_MESSAGES.tooManyRows).toBe('Le fichier dépasse 20 000 lignes.');
    expect(IMPORT_MESSAGES.unzippedTooLarge).toMatch(/^Le classeur décompressé dépasse 100 Mo/);
    expect(IMPORT_MESSAGES.tooManyCells).toBe('Le fichier dépasse 600 000 cellules remplies.');
    expect(IMPORT_MESSAGES.cellTooLong(3)).toBe('La ligne 3 contient une cellule de plus de 10 000 caractères.');
    expect(IMPORT_MESSAGES.tooSlow).toMatch(/dépasse 20 secondes/);
  });
});

describe('dates of the calendar', () => {
  it('are told by arithmetic exactly as the calendar does (issue 40)', () => {
    const field = isoDateField('requise');
    const byCalendar = (text: string) => new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
    for (const year of [1900, 1999, 2000, 2023, 2024, 2100, 2400]) {
      for (let month = 0; month <= 13; month += 1) {
        for (const day of [0, 1, 28, 29, 30, 31, 32]) {
          const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const valid = month >= 1 && month <= 12 && day >= 1 && day <= 31 && byCalendar(text);
          expect(field.safeParse(text).success, text).toBe(valid);
        }
      }
    }
    expect(field.safeParse('2024-2-29').success).toBe(false);
  });
});
