import {
  creationStageOf,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  type ImportPlan,
  type ImportPreview,
  type ImportReferences,
  type ImportRow,
  planImportInTurns,
} from '@reformes/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { affectations, covers, natures, objectifs, reformes, resultats, structures } from '../../db/schema/index.ts';
import { AppError, tooManyRequests } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/guard.ts';
import { createSlots } from '../../http/slots.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { reformeValuesOf } from './reforme-values.ts';
import { actAs } from './timeline.service.ts';

/** Rows per insert statement: large enough to be fast, small enough for PostgreSQL's 65 535 parameters. */
const CHUNK = 500;

function chunks<T>(rows: T[], size = CHUNK): T[][] {
  return Array.from({ length: Math.ceil(rows.length / size) }, (_, index) => rows.slice(index * size, (index + 1) * size));
}

const previewOf = (plan: ImportPlan): ImportPreview => ({
  reformes: plan.reformes,
  valid: plan.valid.length,
  validLines: plan.valid.reduce((sum, reforme) => sum + reforme.lines.length, 0),
  issues: plan.issues,
});

/**
 * One plan at a time in the server (issue 40): a plan of 20 000 lines holds tens of MB while it is made, two at once
 * would add their peaks. The others wait their turn (as many as the readers' queue), past it they are refused.
 */
const inPlanningTurn = createSlots(1, {
  waiting: IMPORT_LIMITS.waiting,
  refusal: () => tooManyRequests(IMPORT_MESSAGES.busy, IMPORT_LIMITS.seconds),
});

/** Plans a few milliseconds at a time: the server keeps answering others meanwhile (issue 40). */
const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Import of reforms with objectives and results (issue 17): the plan is the domain's; writing is here. */
export function createImportService(db: Db) {
  /** The active reference lists the names of a file are matched against. */
  async function references(): Promise<ImportReferences> {
    const [natureRows, coverRows, structureRows] = await Promise.all([
      db.select({ id: natures.id, libnature: natures.libnature }).from(natures).where(eq(natures.is_active, true)),
      db.select({ id: covers.id, lib_couvert: covers.lib_couvert }).from(covers).where(eq(covers.is_active, true)),
      db
        .select({ id: structures.id, sigl: structures.sigl, designation: structures.designation })
        .from(structures)
        .where(eq(structures.is_active, true)),
    ]);
    return { natures: natureRows, couvertures: coverRows, structures: structureRows };
  }

  return {
    /** What an import of these lines would do: counts and every issue, nothing written. */
    async preview(rows: ImportRow[]): Promise<ImportPreview> {
      // The turn is asked for first, before any await: who waits and who is refused is decided in arrival order.
      return inPlanningTurn(async () => previewOf(await planImportInTurns(rows, await references(), pause)));
    },

    /**
     * Writes every reform without issues, with its objectives and results, in one transaction (all or nothing),
     * at the importer's creation stage, each with its creation line in the history; then one audit entry.
     */
    async commit(auth: AuthContext, rows: ImportRow[]): Promise<ImportPreview> {
      const plan = await inPlanningTurn(async () => planImportInTurns(rows, await references(), pause));
      if (plan.valid.length === 0) throw new AppError(422, IMPORT_MESSAGES.nothingValid);
      const stage = creationStageOf(auth.role);
      await db.transaction(async (tx) => {
        await actAs(tx, auth);
        for (const batch of chunks(plan.valid)) {
          const created = await tx
            .insert(reformes)
            .values(
              batch.map(({ reforme }) => ({
                ...reformeValuesOf(reforme),
                stage,
                structure_id: reforme.structure_id,
                created_by: auth.userId,
              })),
            )
            .returning({ id: reformes.id });
          await tx
            .insert(affectations)
            .values(
              created.map(({ id }) => ({ reforme_id: id, sens: 0, event: 'creation' as const, to_stage: stage, user_id: auth.userId })),
            );
          const objectifRows = batch.flatMap(({ objectifs: list }, index) =>
            list.map((objectif) => ({ reforme_id: created[index].id, libobjectif: objectif.libobjectif, results: objectif.results })),
          );
          for (const objectifBatch of chunks(objectifRows)) {
            const createdObjectifs = await tx
              .insert(objectifs)
              .values(objectifBatch.map(({ reforme_id, libobjectif }) => ({ reforme_id, libobjectif })))
              .returning({ id: objectifs.id });
            const resultRows = objectifBatch.flatMap(({ results }, index) =>
              results.map((result) => ({
                objectif_id: createdObjectifs[index].id,
                libresult: result.libresult,
                indicateur: result.indicateur,
                valeur_cible: String(result.valeur_cible),
                valeurref: String(result.valeurref),
              })),
            );
            for (const resultBatch of chunks(resultRows)) await tx.insert(resultats).values(resultBatch);
          }
        }
        await recordAudit(tx, {
          action: 'reforme.import',
          target: { type: 'reforme', id: null, label: `${plan.valid.length} réforme(s)` },
          details: { reformes: plan.valid.length, lines: rows.length, skipped: plan.reformes - plan.valid.length },
        });
      });
      return previewOf(plan);
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
