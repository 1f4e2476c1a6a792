import { periodText, type Reforme } from '@reformes/domain';

/** The columns of a reform as the form (or an import line) gives them; the period is built from the dates. */
export function reformeValuesOf(input: Reforme) {
  return {
    libref: input.libref,
    typeref: input.typeref,
    nature_id: input.nature_id,
    objectif_glob: input.objectif_glob,
    popul_cible: input.popul_cible,
    couverture_id: input.couverture_id,
    struct_impl: input.struct_impl,
    date_debut: input.date_debut,
    date_fin: input.date_fin,
    periodexe: periodText(input.date_debut, input.date_fin),
    cadreinst_mor: input.cadreinst_mor ?? null,
    etat_mor: input.etat_mor ?? null,
    montant_prevu: input.montant_prevu == null ? null : String(input.montant_prevu),
    montant_trealise: input.montant_trealise == null ? null : String(input.montant_trealise),
    difficult: input.difficult ?? null,
    solution: input.solution ?? null,
    perspective: input.perspective ?? null,
  };
}
