import { z } from '../zod-locale.ts';
import { day, envelopeShape, type Shape } from './envelope.ts';

/**
 * What anyone may read of a published reform (spec §2.1): no instructions, no workflow stage, no user,
 * no internal assessment (difficulties, solutions, perspectives).
 */
export const publicReformeShape = z.object({
  id: z.number(),
  libref: z.string(),
  typeref: z.string(),
  periodexe: z.string(),
  date_debut: day,
  date_fin: day,
  etat_mor: z.string().nullable(),
  objectif_glob: z.string(),
  popul_cible: z.string(),
  struct_impl: z.string(),
  cadreinst_mor: z.string().nullable(),
  montant_prevu: z.string().nullable(),
  montant_trealise: z.string().nullable(),
  nature: z.object({ id: z.number(), libnature: z.string() }),
  couverture: z.object({ id: z.number(), lib_couvert: z.string() }),
  structure: z.object({ id: z.number(), designation: z.string(), sigl: z.string() }),
});
export type PublicReforme = Shape<typeof publicReformeShape>;

/** A published measure of a result: no author, no internal id. */
export const publicMeasureShape = z.object({ date: day, valeur_realise: z.string(), taux_realisat: z.string() });
export type PublicMeasure = Shape<typeof publicMeasureShape>;

export const publicResultatShape = z.object({
  id: z.number(),
  libresult: z.string(),
  indicateur: z.string(),
  valeur_cible: z.string(),
  valeurref: z.string(),
  status: z.number(),
  latest: publicMeasureShape.nullable(),
  suivi_results: z.array(publicMeasureShape),
});
export type PublicResultat = Shape<typeof publicResultatShape>;

export const publicObjectifShape = z.object({
  id: z.number(),
  libobjectif: z.string(),
  /** Validated results over all results, unrounded; null without results. */
  percentage: z.number().nullable(),
  results: z.array(publicResultatShape),
});
export type PublicObjectif = Shape<typeof publicObjectifShape>;

/** `GET reformes/public/{id}`: the public fields, the state's label, the active objectives and their progress. */
export const publicReformeDetailShape = publicReformeShape.extend({
  etat_label: z.string().nullable(),
  objectifs: z.array(publicObjectifShape),
});
export type PublicReformeDetail = Shape<typeof publicReformeDetailShape>;

/** The options of the public filters: active structures, natures and coverages. */
export const publicFilterOptionsShape = z.object({
  structures: z.array(z.object({ id: z.number(), designation: z.string(), sigl: z.string() })),
  natures: z.array(z.object({ id: z.number(), libnature: z.string() })),
  covers: z.array(z.object({ id: z.number(), lib_couvert: z.string() })),
});
export type PublicFilterOptions = Shape<typeof publicFilterOptionsShape>;

export const publicReformeDetailAnswer = envelopeShape(publicReformeDetailShape);
