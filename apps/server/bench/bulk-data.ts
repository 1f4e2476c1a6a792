/**
 * The bench's data set, inserted with set-based SQL (generate_series) on a database that the server
 * has already migrated and seeded with the demo data. The same statements run on both engines (node-postgres).
 *
 * For n reforms: 1-2 objectives each (1.5 n), 2 expected results per objective (3 n), 1-4 follow-up
 * records on a third of the results (2.5 n), 1-2 attachments (reforme_files rows, no file on disk) on a
 * quarter of the reforms (0.375 n), and the workflow history of each reform (creation, transmissions,
 * publication: about 2.2 n affectations). A fifth of the reforms (n / 5, active, at the last stage) are published,
 * as the issue 33 harness publishes 20 000 of 100 000.
 */
import { DEMO_SUBJECTS } from '../src/db/seed/demo.ts';

/** Runs one statement and returns its rows. */
export type Query = (text: string) => Promise<Array<Record<string, unknown>>>;

/** The word the search scenarios look for: in the title of 2 reforms out of 10. */
export const SEARCH_WORD = 'modernisation';

/** The demo's subjects, one swapped so that SEARCH_WORD is in 2 titles out of 10. */
const SUBJECTS = DEMO_SUBJECTS.map((subject) =>
  subject === 'Guichet unique des entreprises' ? 'Modernisation des systèmes d’information' : subject,
);

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

export interface BulkCounts {
  reformes: number;
  objectifs: number;
  resultats: number;
  suivi_results: number;
  reforme_files: number;
  affectations: number;
}

/** What the scenarios need to know about the data (a filter that matches, how many rows a search finds). */
export interface BenchParameters {
  totalReformes: number;
  /** structure_id and nature_id of the largest (structure, nature) group among the SECTORIELLE reforms. */
  structureId: number;
  natureId: number;
  filteredTotal: number;
  /** Reforms whose title holds SEARCH_WORD. */
  searchTotal: number;
  publishedTotal: number;
  /** Active reforms of the follow-up portfolio (what a user who sees every structure pages through). */
  portfolioTotal: number;
  /** The reforms' ids run from here to `lastReformeId` without a gap (the history scenario picks one at random). */
  firstReformeId: number;
  lastReformeId: number;
}

async function one(query: Query, text: string): Promise<number> {
  const [row] = await query(text);
  return Number(Object.values(row ?? {})[0] ?? 0);
}

/** Inserts `n` reforms and their children; returns how many rows of each table it added. */
export async function insertBulkData(query: Query, n: number, log: (line: string) => void): Promise<BulkCounts> {
  const before = await one(query, 'select coalesce(max(id), 0) from reformes');
  const mine = `r.id > ${before}`;
  const user = `(select coalesce((select id from users where email = 'central@reformes.test'), (select min(id) from users)))`;
  const step = async (label: string, text: string) => {
    const started = Date.now();
    await query(text);
    log(`  ${label} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  };

  // Pseudo-random but reproducible spread over the reference rows: hashint4 with a different salt per column.
  const pick = (array: string, salt: number) => `${array}[1 + abs(hashint4(g * 7 + ${salt})) % cardinality(${array})]`;
  await step(
    'reformes',
    `insert into reformes (libref, typeref, nature_id, objectif_glob, popul_cible, couverture_id, struct_impl,
       date_debut, date_fin, periodexe, date_enreg, cadreinst_mor, etat_mor, montant_prevu, montant_trealise,
       difficult, solution, perspective, is_published, is_active, stage, structure_id, created_by, created_at, updated_at)
     select s.subject || ' — lot ' || g, case when abs(hashint4(g * 7 + 1)) % 2 = 0 then 'SECTORIELLE' else 'TRANSVERSALE' end,
       ${pick('ref.natures', 2)}, 'Améliorer le service public (réforme de charge n° ' || g || ')',
       (array['Usagers du service public', 'Agents publics', 'Entreprises'])[1 + g % 3], ${pick('ref.covers', 3)},
       'Ministères concernés et services déconcentrés', d.debut, d.fin,
       'Du ' || to_char(d.debut, 'DD/MM/YYYY') || ' au ' || to_char(d.fin, 'DD/MM/YYYY'),
       d.enreg, 'Comité de pilotage interministériel', (array['en_cours', 'planifiee', 'terminee', 'suspendue'])[1 + g % 4],
       100000 + (g % 1000) * 2500, 50000 + (g % 700) * 1000, 'Disponibilité des ressources humaines', 'Formation des agents',
       'Généralisation à tout le territoire', false, g % 97 <> 0, st.stage, ${pick('ref.structures', 4)},
       u.id, d.enreg, d.enreg
     from generate_series(1, ${n}) as g
     cross join (select (select array_agg(id order by id) from natures) as natures,
                        (select array_agg(id order by id) from covers) as covers,
                        (select array_agg(id order by id) from structures) as structures) as ref
     cross join (select ${user} as id) as u
     cross join lateral (select (array[${SUBJECTS.map(literal).join(', ')}])[1 + g % ${SUBJECTS.length}] as subject) as s
     cross join lateral (select 1 + abs(hashint4(g * 7 + 5)) % 3 as stage) as st
     cross join lateral (select date '2023-01-01' + g % 1096 as debut, date '2023-01-01' + g % 1096 + 180 + g % 900 as fin,
                                timestamptz '2024-01-01 08:00:00+00' + g * interval '5 minutes' as enreg) as d`,
  );
  await step(
    'publication',
    `update reformes set is_published = true where id in (
       select r.id from reformes r where ${mine} and r.stage = 3 and r.is_active order by r.id limit ${Math.floor(n / 5)})`,
  );
  await step(
    'objectifs',
    `insert into objectifs (libobjectif, reforme_id, created_at, updated_at)
     select 'Objectif ' || k || ' de la réforme n° ' || r.id, r.id, r.date_enreg, r.date_enreg
     from reformes r cross join lateral generate_series(1, 1 + r.id % 2) as k where ${mine}`,
  );
  await step(
    'resultats',
    `insert into resultats (libresult, indicateur, valeur_cible, valeurref, objectif_id, status, created_at, updated_at)
     select 'Résultat ' || k || ' de l''objectif ' || o.id, case k when 1 then 'Taux de dématérialisation (%)' else 'Nombre de bénéficiaires' end,
       case k when 1 then 100 else 5000 end, case k when 1 then 20 else 1000 end, o.id, (o.id + k) % 2, o.created_at, o.created_at
     from objectifs o cross join generate_series(1, 2) as k where o.reforme_id > ${before}`,
  );
  await step(
    'suivi_results',
    `insert into suivi_results (taux_realisat, valeur_realise, date, result_id, created_by, created_at)
     select least(100, 15 * k), 200 * k, date '2024-01-15' + k * 90 + x.id % 28, x.id, ${user}, x.created_at + k * interval '90 days'
     from resultats x join objectifs o on o.id = x.objectif_id
     cross join lateral generate_series(1, 1 + (x.id / 3) % 4) as k
     where o.reforme_id > ${before} and x.id % 3 = 0`,
  );
  await step(
    'reforme_files',
    `insert into reforme_files (reforme_id, name_file, name, original_name, size, created_by, created_at)
     select r.id, 'Pièce ' || k || ' de la réforme n° ' || r.id, 'bench-' || r.id || '-' || k || '.pdf', 'piece-' || k || '.pdf',
       20000 + r.id % 50000, r.created_by, r.date_enreg
     from reformes r cross join lateral generate_series(1, 1 + (r.id / 4) % 2) as k where ${mine} and r.id % 4 = 0`,
  );
  await step(
    'affectations',
    `insert into affectations (reforme_id, sens, event, from_stage, to_stage, user_id, created_at)
     select r.id, 0, 'creation', null, 1, r.created_by, r.date_enreg from reformes r where ${mine}
     union all
     select r.id, -1, 'transmission', t, t + 1, r.created_by, r.date_enreg + t * interval '1 day'
       from reformes r cross join lateral generate_series(1, r.stage - 1) as t where ${mine}
     union all
     select r.id, 0, 'publication', r.stage, r.stage, r.created_by, r.date_enreg + interval '3 days'
       from reformes r where ${mine} and r.is_published`,
  );

  const counted = async (table: string, join: string) => one(query, `select count(*) from ${table} ${join}`);
  return {
    reformes: await counted('reformes r', `where ${mine}`),
    objectifs: await counted('objectifs', `where reforme_id > ${before}`),
    resultats: await counted('resultats x', `join objectifs o on o.id = x.objectif_id where o.reforme_id > ${before}`),
    suivi_results: await counted(
      'suivi_results s',
      `join resultats x on x.id = s.result_id join objectifs o on o.id = x.objectif_id where o.reforme_id > ${before}`,
    ),
    reforme_files: await counted('reforme_files', `where reforme_id > ${before}`),
    affectations: await counted('affectations', `where reforme_id > ${before}`),
  };
}

export async function benchParameters(query: Query): Promise<BenchParameters> {
  const [group] = await query(
    `select structure_id, nature_id, count(*) as total from reformes
     where typeref = 'SECTORIELLE' group by structure_id, nature_id order by count(*) desc, structure_id, nature_id limit 1`,
  );
  return {
    totalReformes: await one(query, 'select count(*) from reformes'),
    structureId: Number(group.structure_id),
    natureId: Number(group.nature_id),
    filteredTotal: Number(group.total),
    searchTotal: await one(query, `select count(*) from reformes where lower(libref) like '%${SEARCH_WORD}%'`),
    publishedTotal: await one(query, 'select count(*) from reformes where is_published and is_active'),
    portfolioTotal: await one(query, 'select count(*) from reforme_progress where is_active'),
    firstReformeId: await one(query, 'select min(id) from reformes'),
    lastReformeId: await one(query, 'select max(id) from reformes'),
  };
}
