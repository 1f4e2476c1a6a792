import type { HistoryEvent } from '@reformes/domain';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
} from 'drizzle-orm/pg-core';
import { SEARCH_ACCENTED, SEARCH_PLAIN } from '../search-alphabet.ts';
import { createdAt, id, isActive, refersTo, timestamps } from './columns.ts';
import { covers, natures, structures } from './reference.ts';
import { users } from './users.ts';

/** 'yyyy-mm-dd' from immutable functions: a date's text form depends on DateStyle, so a generated column may not use it. */
function isoDate(column: AnyColumn): SQL {
  return sql`extract(year from ${column})::text || '-' || lpad(extract(month from ${column})::text, 2, '0') || '-' || lpad(extract(day from ${column})::text, 2, '0')`;
}

export const reformes = pgTable(
  'reformes',
  {
    id: id(),
    libref: text().notNull(),
    typeref: text().notNull(),
    nature_id: refersTo(() => natures.id, 'restrict'),
    objectif_glob: text().notNull(),
    popul_cible: text().notNull(),
    couverture_id: refersTo(() => covers.id, 'restrict'),
    struct_impl: text().notNull(),
    date_debut: date({ mode: 'string' }).notNull(),
    date_fin: date({ mode: 'string' }).notNull(),
    periodexe: text().notNull(),
    date_enreg: createdAt(),
    cadreinst_mor: text(),
    etat_mor: text(),
    montant_prevu: numeric({ precision: 15, scale: 2 }),
    montant_trealise: numeric({ precision: 15, scale: 2 }),
    difficult: text(),
    solution: text(),
    perspective: text(),
    isPublished: boolean().notNull().default(false),
    is_active: isActive(),
    /** Workflow stage (architecture §4): 1 transmission, 2 validation, 3 publication. */
    stage: smallint().notNull().default(1),
    structure_id: refersTo(() => structures.id, 'restrict'),
    created_by: refersTo(() => users.id, 'restrict'),
    /**
     * The searchable texts, lower-case and without accents, kept by the database: a search is one
     * LIKE on one column, served by a trigram index, instead of nine normalisations per row (see
     * http/search.ts). The state reads as its label ("en cours"), so a search for "_" finds nothing; the
     * dates are there in ISO form too ("2026-03-01"), built from immutable parts as a generated column needs.
     */
    search_text: text().generatedAlwaysAs(
      (): SQL =>
        sql`translate(lower(${reformes.libref} || ' ' || ${reformes.typeref} || ' ' || ${reformes.periodexe} || ' ' || replace(coalesce(${reformes.etat_mor}, ''), '_', ' ') || ' ' || ${reformes.objectif_glob} || ' ' || ${reformes.popul_cible} || ' ' || ${reformes.struct_impl}), ${sql.raw(`'${SEARCH_ACCENTED}'`)}, ${sql.raw(`'${SEARCH_PLAIN}'`)}) || ' ' || ${isoDate(reformes.date_debut)} || ' ' || ${isoDate(reformes.date_fin)}`,
    ),
    ...timestamps,
  },
  (t) => [
    check('reformes_typeref_check', sql`${t.typeref} in ('SECTORIELLE', 'TRANSVERSALE')`),
    check('reformes_stage_check', sql`${t.stage} between 1 and 3`),
    check('reformes_dates_check', sql`${t.date_debut} <= ${t.date_fin}`),
    check('reformes_etat_check', sql`${t.etat_mor} is null or ${t.etat_mor} in ('en_cours', 'planifiee', 'terminee', 'suspendue')`),
    check('reformes_amounts_check', sql`coalesce(${t.montant_prevu}, 0) >= 0 and coalesce(${t.montant_trealise}, 0) >= 0`),
    // Each list pages its ids from one of these in its own order (date_enreg desc, id desc). Ascending on
    // purpose: read backwards they serve "order by … desc" (nulls first), which "desc nulls last" would not.
    index('reformes_date_enreg_idx').on(t.date_enreg, t.id),
    index('reformes_structure_date_idx').on(t.structure_id, t.date_enreg, t.id),
    index('reformes_created_by_idx').on(t.created_by, t.date_enreg, t.id),
    index('reformes_stage_idx').on(t.stage, t.isPublished, t.date_enreg, t.id),
    index('reformes_structure_stage_idx').on(t.structure_id, t.stage, t.isPublished, t.date_enreg, t.id),
    index('reformes_published_idx').on(t.isPublished, t.is_active, t.date_debut, t.id),
    index('reformes_search_trgm_idx').using('gin', t.search_text.op('gin_trgm_ops')),
    index('reformes_nature_idx').on(t.nature_id),
    index('reformes_couverture_idx').on(t.couverture_id),
  ],
);

export const reformeFiles = pgTable(
  'reforme_files',
  {
    id: id(),
    /** Null while the upload waits for its reform: the create form uploads before it saves. */
    reforme_id: integer().references(() => reformes.id, { onDelete: 'cascade' }),
    name_file: text().notNull(),
    /** Generated storage name, never the client's. */
    name: text().notNull().unique(),
    original_name: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    created_by: integer().references(() => users.id, { onDelete: 'set null' }),
    created_at: createdAt(),
  },
  (t) => [index('reforme_files_reforme_idx').on(t.reforme_id)],
);

export const objectifs = pgTable(
  'objectifs',
  {
    id: id(),
    libobjectif: text().notNull(),
    reforme_id: refersTo(() => reformes.id, 'cascade'),
    is_active: isActive(),
    ...timestamps,
  },
  (t) => [index('objectifs_reforme_idx').on(t.reforme_id)],
);

export const resultats = pgTable(
  'resultats',
  {
    id: id(),
    libresult: text().notNull(),
    indicateur: text().notNull(),
    valeur_cible: numeric({ precision: 18, scale: 4 }).notNull(),
    valeurref: numeric({ precision: 18, scale: 4 }).notNull(),
    objectif_id: refersTo(() => objectifs.id, 'cascade'),
    status: smallint().notNull().default(0),
    is_active: isActive(),
    ...timestamps,
  },
  (t) => [check('resultats_status_check', sql`${t.status} in (0, 1)`), index('resultats_objectif_idx').on(t.objectif_id)],
);

export const suiviResults = pgTable(
  'suivi_results',
  {
    id: id(),
    taux_realisat: numeric({ precision: 18, scale: 4 }).notNull(),
    valeur_realise: numeric({ precision: 18, scale: 4 }).notNull(),
    date: date({ mode: 'string' }).notNull(),
    result_id: refersTo(() => resultats.id, 'cascade'),
    created_by: integer().references(() => users.id, { onDelete: 'set null' }),
    created_at: createdAt(),
  },
  (t) => [
    check('suivi_results_positive_check', sql`${t.taux_realisat} >= 0 and ${t.valeur_realise} >= 0`),
    index('suivi_results_result_idx').on(t.result_id, t.date),
  ],
);

/** Assignments double as the workflow history: one row per transition. */
export const affectations = pgTable(
  'affectations',
  {
    id: id(),
    reforme_id: refersTo(() => reformes.id, 'cascade'),
    /** -1 transmits upward, 1 returns for correction (spec §3); 0 records creation and publication events. */
    sens: smallint().notNull(),
    instruction: text(),
    from_stage: smallint(),
    to_stage: smallint(),
    event: text().$type<HistoryEvent>().notNull(),
    user_id: integer().references(() => users.id, { onDelete: 'set null' }),
    created_at: createdAt(),
  },
  (t) => [check('affectations_sens_check', sql`${t.sens} in (-1, 0, 1)`), index('affectations_reforme_idx').on(t.reforme_id, t.created_at)],
);

export const backups = pgTable('backups', {
  id: id(),
  name: text().notNull().unique(),
  type: text().notNull(),
  size: bigint({ mode: 'number' }).notNull(),
  is_active: isActive(),
  created_at: createdAt(),
});

/**
 * Reforms counted by everything the dashboard splits them by, kept by statement triggers on `reformes`
 * (migration 0002): the dashboard sums a few hundred rows instead of scanning every reform.
 */
export const reformeCounts = pgTable(
  'reforme_counts',
  {
    structure_id: integer().notNull(),
    nature_id: integer().notNull(),
    couverture_id: integer().notNull(),
    typeref: text().notNull(),
    /** '' when the reform has no état. */
    etat_mor: text().notNull(),
    stage: smallint().notNull(),
    is_published: boolean().notNull(),
    is_active: boolean().notNull(),
    total: integer().notNull(),
  },
  (t) => [
    primaryKey({
      name: 'reforme_counts_pk',
      columns: [t.structure_id, t.nature_id, t.couverture_id, t.typeref, t.etat_mor, t.stage, t.is_published, t.is_active],
    }),
  ],
);

/**
 * Per reform, a summary of its active results and its time-aware status (issue 16), kept by statement triggers
 * on reformes, objectifs, resultats and suivi_results; the status is recomputed once its day has passed
 * (migration 0007, `portfolio_refresh_due`). The follow-up portfolio reads this table only.
 */
export const reformeProgress = pgTable(
  'reforme_progress',
  {
    reforme_id: integer()
      .primaryKey()
      .references(() => reformes.id, { onDelete: 'cascade' }),
    is_active: boolean().notNull(),
    structure_id: integer().notNull(),
    nature_id: integer().notNull(),
    typeref: text().notNull(),
    etat_mor: text(),
    date_debut: date({ mode: 'string' }).notNull(),
    date_fin: date({ mode: 'string' }).notNull(),
    results_total: integer().notNull().default(0),
    results_validated: integer().notNull().default(0),
    progress_sum: doublePrecision().notNull().default(0),
    last_suivi_date: date({ mode: 'string' }),
    status: text().notNull(),
    status_rank: smallint().notNull(),
    status_until: date({ mode: 'string' }),
  },
  (t) => [
    index('reforme_progress_order_idx').on(t.status_rank, t.date_fin, t.reforme_id).where(sql`${t.is_active}`),
    index('reforme_progress_structure_idx').on(t.structure_id, t.status_rank, t.date_fin, t.reforme_id).where(sql`${t.is_active}`),
    index('reforme_progress_until_idx').on(t.status_until),
  ],
);

/** Reforms by the portfolio's filters and status, kept by statement triggers on `reforme_progress` (migration 0007). */
export const portfolioCounts = pgTable(
  'portfolio_counts',
  {
    structure_id: integer().notNull(),
    nature_id: integer().notNull(),
    typeref: text().notNull(),
    /** '' when the reform has no état. */
    etat_mor: text().notNull(),
    status: text().notNull(),
    is_active: boolean().notNull(),
    total: integer().notNull(),
  },
  (t) => [
    primaryKey({ name: 'portfolio_counts_pk', columns: [t.structure_id, t.nature_id, t.typeref, t.etat_mor, t.status, t.is_active] }),
  ],
);
