/**
 * Benchmark of the reform lists at scale (issue: "must stay fast with 100 000 reforms").
 *   npm run bench                 # in-memory PGlite reached through pglite-socket and node-postgres
 *   DATABASE_URL=… npm run bench  # a real PostgreSQL (a scratch database is created and dropped)
 * Prints p50/p95/max per scenario through the whole HTTP stack (app.inject).
 */
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { seedDemoData } from '../src/db/seed/demo.ts';
import { seedReferenceData } from '../src/db/seed/reference.ts';
import { createTestDatabase } from '../src/test/test-database.ts';

const REFORMS = Number(process.env.BENCH_REFORMS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

const database = await createTestDatabase();
await runMigrations(database);
await seedReferenceData(database.db);
await seedDemoData(database.db);

const started = Date.now();
await database.db.execute(sql`
  insert into reformes (libref, typeref, nature_id, objectif_glob, popul_cible, couverture_id, struct_impl,
    date_debut, date_fin, periodexe, etat_mor, montant_prevu, stage, is_published, structure_id, created_by)
  select 'Réforme de charge n° ' || g, case when g % 2 = 0 then 'SECTORIELLE' else 'TRANSVERSALE' end,
    (select min(id) from natures) + g % 3, 'Objectif ' || g, 'Population ' || g, (select min(id) from covers) + g % 3,
    'Structures ' || g, date '2024-01-01' + (g % 365), date '2026-01-01' + (g % 365),
    'Du 01/01/2024 au 01/01/2026', (array['en_cours','planifiee','terminee','suspendue'])[1 + g % 4], g * 10,
    1 + g % 3, g % 6 = 0, (select min(id) from structures) + g % 5, (select min(id) from users)
  from generate_series(1, ${REFORMS}) as g`);
await database.db.execute(sql`analyze`);
console.log(`${REFORMS} réformes insérées en ${((Date.now() - started) / 1000).toFixed(1)} s (${database.kind})`);

const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: path.join(os.tmpdir(), 'reformes-bench'),
  LOGIN_MAX_PER_IP_PER_MINUTE: '1000',
});
const app = await buildApp({ config, database, logger: false });
await app.ready();
const token = async (email: string) =>
  (await app.inject({ method: 'POST', url: '/api/v1/api/login', payload: { email, password: 'Reformes2026!' } })).json().data
    .access_token as string;
const publication = { authorization: `Bearer ${await token('publication@reformes.test')}` };
const saisie = { authorization: `Bearer ${await token('saisie@reformes.test')}` };

const scenarios: Array<[string, Record<string, string>, string, 'GET' | 'POST', object?]> = [
  ['liste page 1 (toutes structures)', publication, '/api/v1/reformes?per_page=10&page=1', 'GET'],
  ['liste page 5000', publication, '/api/v1/reformes?per_page=10&page=5000', 'GET'],
  [
    'liste filtrée (structure + nature + type)',
    publication,
    '/api/v1/reformes?per_page=10&page=1&structure_id=2&nature_id=1&typeref=SECTORIELLE',
    'GET',
  ],
  ['recherche texte (liste)', publication, '/api/v1/reformes?per_page=10&page=1&search=charge%20n%C2%B0%2099', 'GET'],
  ['recherche POST reformes-search', publication, '/api/v1/reformes-search', 'POST', { search: 'charge n° 4242' }],
  ['à traiter (saisie, sa structure)', saisie, '/api/v1/reformes/users/get-by-role?per_page=10&page=1', 'GET'],
  ['page publique 1', {}, '/api/v1/reformes/public/suivi-result?per_page=10&page=1', 'GET'],
  ['page publique recherche', {}, '/api/v1/reformes/public/suivi-result?per_page=10&page=1&search=charge%2012', 'GET'],
  ['tableau de bord', publication, '/api/v1/dash', 'GET'],
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
for (const [name, headers, url, method, payload] of scenarios) {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const response = await app.inject({ method, url, headers, payload });
    times.push(performance.now() - t0);
    if (response.statusCode !== 200) throw new Error(`${name}: ${response.statusCode} ${response.body}`);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(45)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms  max ${times.at(-1)?.toFixed(1).padStart(7)} ms`,
  );
}
await app.close();
await database.close();
