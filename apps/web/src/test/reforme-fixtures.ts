import type { ReformeDetail, ReformeRow } from '../features/reformes/reformes-api.ts';
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
    ...overrides,
  };
}

/** A reform as its detail and its edit form receive it: the row, its objectives and its history. */
export function aReformeDetail(overrides: Partial<ReformeDetail> = {}): ReformeDetail {
  return { ...aReforme(), objectifs: [], history: [], affectation: null, ...overrides };
}

/** The first and only page of a reform list. */
export const onePage = (rows: unknown[]) => ({ body: pagedAnswer(rows, 1, 10) });
