import { zodResolver } from '@hookform/resolvers/zod';
import {
  choosesStructure,
  formatEuro,
  isStartAfterEnd,
  REFORME_MESSAGES,
  reformeSchema,
  reformeSchemaFor,
  textLimitOf,
} from '@reformes/domain';
import type { FieldErrors, Resolver } from 'react-hook-form';
import type { ReformeDetail } from './reformes-api.ts';

/** The form's values: text as typed, ids as select values, dates as ISO yyyy-mm-dd ('' when empty). */
export interface ReformeFormValues {
  libref: string;
  typeref: string;
  nature_id: string;
  objectif_glob: string;
  popul_cible: string;
  couverture_id: string;
  struct_impl: string;
  date_debut: string;
  date_fin: string;
  /** Read-only: the period text of the two dates; only here so that its required message has a field. */
  periodexe: string;
  cadreinst_mor: string;
  etat_mor: string;
  montant_prevu: string;
  montant_trealise: string;
  difficult: string;
  solution: string;
  perspective: string;
  structure_id: string;
}

export type FieldName = keyof ReformeFormValues;

/** The most characters each text field takes, from the domain schema the API applies. */
export const limitOf = (field: FieldName) => textLimitOf(reformeSchema.shape[field as keyof typeof reformeSchema.shape]);

export const isIsoDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The two dates, in order: what the period text and the "Date Incorrect" alert are made of. */
export function isDateOrderWrong(values: Pick<ReformeFormValues, 'date_debut' | 'date_fin'>): boolean {
  return isIsoDate(values.date_debut) && isIsoDate(values.date_fin) && isStartAfterEnd(values.date_debut, values.date_fin);
}

/**
 * The domain schema of the caller's role, plus the two object-wide rules that zod only checks once
 * every field is valid: the date order and saisie central's structure. Each message shows as soon
 * as its field is wrong, not only after the rest is filled.
 */
export function reformeResolver(role: string | undefined): Resolver<ReformeFormValues> {
  const base = zodResolver(reformeSchemaFor(role)) as unknown as Resolver<ReformeFormValues>;
  return async (values, context, options) => {
    const result = await base(values, context, options);
    const errors: FieldErrors<ReformeFormValues> = { ...result.errors };
    if (choosesStructure(role) && !values.structure_id) {
      errors.structure_id ??= { type: 'required', message: REFORME_MESSAGES.structure_id };
    }
    if (isDateOrderWrong(values)) errors.date_fin ??= { type: 'order', message: REFORME_MESSAGES.dateOrder };
    return Object.keys(errors).length > 0 ? { values: {}, errors } : result;
  };
}

const text = (value: string | null | undefined) => value ?? '';

export function formValuesOf(reforme: ReformeDetail | undefined): ReformeFormValues {
  return {
    libref: text(reforme?.libref),
    typeref: text(reforme?.typeref),
    nature_id: reforme ? String(reforme.nature_id) : '',
    objectif_glob: text(reforme?.objectif_glob),
    popul_cible: text(reforme?.popul_cible),
    couverture_id: reforme ? String(reforme.couverture_id) : '',
    struct_impl: text(reforme?.struct_impl),
    date_debut: text(reforme?.date_debut).slice(0, 10),
    date_fin: text(reforme?.date_fin).slice(0, 10),
    periodexe: text(reforme?.periodexe),
    cadreinst_mor: text(reforme?.cadreinst_mor),
    etat_mor: text(reforme?.etat_mor),
    montant_prevu: formatEuro(reforme?.montant_prevu),
    montant_trealise: formatEuro(reforme?.montant_trealise),
    difficult: text(reforme?.difficult),
    solution: text(reforme?.solution),
    perspective: text(reforme?.perspective),
    structure_id: reforme ? String(reforme.structure_id) : '',
  };
}
