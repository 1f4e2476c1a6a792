import type { ReformeDetail, ReformeRow, ResultatRow } from '../features/reformes/reformes-api.ts';
import type { SuiviObjectif, SuiviRecord } from '../features/suivi/suivi-api.ts';
import { pagedAnswer } from './fake-api.ts';

/** A reform row as the reform lists receive it: in progress, at the entry stage, of the health ministry. */
export function aReforme(overrides: Partial<ReformeRow> = {}): ReformeRow {
  return {
    id: 5,
    libref: 'Guichet unique',
    typeref: 'SECTORIELLE',
    nature_id: 1,
    objectif_glob: 'Simplifier',
    popul_cible: 'Entreprises',
    couverture_id: 2,
    struct_impl: 'MS',
    date_debut: '2026-01-15',
    date_fin: '2026-12-31',
    periodexe: 'Du 15/01/2026 au 31/12/2026',
    date_enreg: '2026-01-10T09:30:00.000Z',
    cadreinst_mor: null,
    etat_mor: 'en_cours',
    montant_prevu: null,
    montant_trealise: null,
    difficult: null,
    solution: null,
    perspective: null,
    isPublished: false,
    is_active: true,
    stage: 1,
    structure_id: 3,
    nature: { id: 1, libnature: 'Administrative' },
    couverture: { id: 2, lib_couvert: 'Nationale' },
    structure: { id: 3, designation: 'Ministère de la Santé', sigl: 'MS' },
    files: [],
    created_by: 7,
    created_at: '2026-01-10T09:30:00.000Z',
    updated_at: '2026-01-10T09:30:00.000Z',
    ...overrides,
  };
}

/** A reform as its detail and its edit form receive it: the row, its objectives and its history. */
export function aReformeDetail(overrides: Partial<ReformeDetail> = {}): ReformeDetail {
  return { ...aReforme(), files: [], objectifs: [], history: [], affectation: null, ...overrides };
}

/** The first and only page of a reform list. */
export const onePage = (rows: unknown[]) => ({ body: pagedAnswer(rows, 1, 10) });

const AT = '2026-01-01T00:00:00.000Z';

/** A follow-up record: the fields the test names, the rest as the server fills them. */
export const aSuivi = (
  fields: Pick<SuiviRecord, 'id' | 'taux_realisat' | 'valeur_realise' | 'date'> & Partial<SuiviRecord>,
): SuiviRecord => ({
  result_id: 0,
  created_by: 1,
  created_at: AT,
  ...fields,
});

/** An expected result, active and pending unless the test says otherwise. */
export const aResultat = (
  fields: Pick<ResultatRow, 'id' | 'libresult' | 'indicateur' | 'valeur_cible' | 'valeurref'> & Partial<ResultatRow>,
): ResultatRow => ({ objectif_id: 0, status: 0, is_active: true, created_at: AT, updated_at: AT, suivi_results: [], ...fields });

/** An objective as the follow-up screens read it: its results, without its reform. */
export const anObjectifTree = (fields: Pick<SuiviObjectif, 'id' | 'libobjectif'> & Partial<SuiviObjectif>): SuiviObjectif => ({
  reforme_id: 0,
  is_active: true,
  created_at: AT,
  updated_at: AT,
  results: [],
  ...fields,
});
