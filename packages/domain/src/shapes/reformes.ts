import { z } from '../zod-locale.ts';
import { day, envelopeShape, type Shape, timestamp } from './envelope.ts';

/**
 * Amounts and measures travel as the database's decimal text ("1234.50"): a float would round a
 * ministry's budget. The screens format them.
 */
const decimal = z.string();

const natureRef = z.object({ id: z.number(), libnature: z.string() });
const coverRef = z.object({ id: z.number(), lib_couvert: z.string() });
const structureRef = z.object({ id: z.number(), designation: z.string(), sigl: z.string() });

/** An attachment as a list shows it: enough to open it; `chemin` is the URL it is read from (spec §3). */
export const reformeFileRefShape = z.object({ id: z.number(), name_file: z.string(), chemin: z.string() });
export type ReformeFileRef = Shape<typeof reformeFileRefShape>;

/** The fields of a reform every back-office screen shows (spec §3 "Reform", architecture §4 stage). */
const reformeFields = {
  id: z.number(),
  libref: z.string(),
  typeref: z.string(),
  nature_id: z.number(),
  objectif_glob: z.string(),
  popul_cible: z.string(),
  couverture_id: z.number(),
  struct_impl: z.string(),
  date_debut: day,
  date_fin: day,
  periodexe: z.string(),
  date_enreg: timestamp,
  cadreinst_mor: z.string().nullable(),
  etat_mor: z.string().nullable(),
  montant_prevu: decimal.nullable(),
  montant_trealise: decimal.nullable(),
  difficult: z.string().nullable(),
  solution: z.string().nullable(),
  perspective: z.string().nullable(),
  isPublished: z.boolean(),
  is_active: z.boolean(),
  stage: z.number(),
  structure_id: z.number(),
  nature: natureRef.nullable(),
  couverture: coverRef.nullable(),
  structure: structureRef.nullable(),
  /** The user who entered it ("Mes enregistrements"); null once that account is deleted. */
  created_by: z.number().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
};

/** A reform as the lists return it. */
export const reformeRowShape = z.object({ ...reformeFields, files: z.array(reformeFileRefShape) });
export type ReformeRow = Shape<typeof reformeRowShape>;

/** A follow-up record of a result (spec §3 "SuiviResult"). */
export const suiviRecordShape = z.object({
  id: z.number(),
  result_id: z.number(),
  taux_realisat: decimal,
  valeur_realise: decimal,
  date: day,
  /** Who entered it; null once that account is deleted. */
  created_by: z.number().nullable(),
  created_at: timestamp,
});
export type SuiviRecord = Shape<typeof suiviRecordShape>;

/** An expected result (spec §3); `status` 0 pending, 1 validated (spec §4). */
export const resultatRowShape = z.object({
  id: z.number(),
  objectif_id: z.number(),
  libresult: z.string(),
  indicateur: z.string(),
  valeur_cible: decimal,
  valeurref: decimal,
  status: z.number(),
  is_active: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});

/** An expected result with its follow-up records, oldest first. */
export const resultatShape = resultatRowShape.extend({ suivi_results: z.array(suiviRecordShape) });
export type ResultatRow = Shape<typeof resultatShape>;

/** A result as the results list shows it: with its objective, named. */
export const resultatListRowShape = resultatRowShape.extend({
  objectif: z.object({ id: z.number(), libobjectif: z.string(), reforme_id: z.number() }),
});
export type ResultatListRow = Shape<typeof resultatListRowShape>;

const objectifFields = {
  id: z.number(),
  libobjectif: z.string(),
  reforme_id: z.number(),
  is_active: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
};

/** An objective with the reform it belongs to, named (the objectives list spans reforms). */
export const objectifRowShape = z.object({ ...objectifFields, reforme: z.object({ id: z.number(), libref: z.string() }) });
export type ObjectifListRow = Shape<typeof objectifRowShape>;

/** An objective with its expected results and their follow-up records (the follow-up screens). */
export const objectifTreeShape = z.object({ ...objectifFields, results: z.array(resultatShape) });

/** An objective with its reform, its expected results and their follow-up records. */
export const objectifShape = objectifRowShape.extend({ results: z.array(resultatShape) });
export type ObjectifRow = Shape<typeof objectifShape>;

/** A reform as the follow-up screens read it: its name, its stage and its active objectives' trees. */
export const suiviReformeShape = z.object({
  id: z.number(),
  libref: z.string(),
  periodexe: z.string(),
  isPublished: z.boolean(),
  stage: z.number(),
  objectifs: z.array(objectifTreeShape),
});
export type SuiviReforme = Shape<typeof suiviReformeShape>;

/** An attachment as the reform's sheet shows it. */
export const reformeFileShape = reformeFileRefShape.extend({
  original_name: z.string(),
  created_at: timestamp,
  size: z.number().optional(),
});
export type ReformeFile = Shape<typeof reformeFileShape>;

/** A PDF just uploaded: not yet tied to a reform when the reform form is still being filled. */
export const uploadedFileShape = reformeFileRefShape.extend({
  reforme_id: z.number().nullable(),
  original_name: z.string(),
  size: z.number(),
});
export type UploadedFile = Shape<typeof uploadedFileShape>;

export const HISTORY_EVENTS = ['creation', 'transmission', 'retour', 'publication', 'depublication'] as const;
export type HistoryEvent = (typeof HISTORY_EVENTS)[number];

/** One step of a reform's workflow history; `user` is the actor's name. */
export const historyShape = z.object({
  id: z.number(),
  event: z.enum(HISTORY_EVENTS),
  sens: z.number(),
  from_stage: z.number().nullable(),
  to_stage: z.number().nullable(),
  instruction: z.string().nullable(),
  created_at: timestamp,
  user: z.string().nullable(),
});
export type HistoryRow = Shape<typeof historyShape>;

/** `GET reformes/{id}`: the row plus objectives with results, attachments, history and the return banner. */
export const reformeDetailShape = z.object({
  ...reformeFields,
  objectifs: z.array(objectifShape),
  files: z.array(reformeFileShape),
  history: z.array(historyShape),
  affectation: z.object({ instruction: z.string().nullable() }).nullable(),
});
export type ReformeDetail = Shape<typeof reformeDetailShape>;
export const reformeDetailAnswer = envelopeShape(reformeDetailShape);

/** The answers of one objective and one result. */
export const objectifAnswer = envelopeShape(objectifShape);
export const resultatAnswer = envelopeShape(resultatShape);
export const suiviRecordAnswer = envelopeShape(suiviRecordShape);
