import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiviResults } from '../../db/schema/index.ts';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

interface DemoRow {
  id: number;
  libref: string;
  typeref: string;
  structure_id: number;
  nature_id: number;
  couverture_id: number;
  isPublished: boolean;
  is_active: boolean;
}
interface PublicRow {
  id: number;
  libref: string;
  typeref: string;
  date_debut: string;
  structure: { id: number; designation: string; sigl: string };
  nature: { id: number; libnature: string };
  couverture: { id: number; lib_couvert: string };
}

/** Every field a public row may carry, and nothing else (no stage, user, instruction or internal assessment). */
const PUBLIC_ROW_KEYS = [
  'cadreinst_mor',
  'couverture',
  'date_debut',
  'date_fin',
  'etat_mor',
  'id',
  'libref',
  'montant_prevu',
  'montant_trealise',
  'nature',
  'objectif_glob',
  'periodexe',
  'popul_cible',
  'struct_impl',
  'structure',
  'typeref',
];
const PUBLIC_DETAIL_KEYS = [...PUBLIC_ROW_KEYS, 'etat_label', 'objectifs'].sort();
const OBJECTIF_KEYS = ['id', 'libobjectif', 'percentage', 'results'];
const RESULT_KEYS = ['id', 'indicateur', 'latest', 'libresult', 'status', 'suivi_results', 'valeur_cible', 'valeurref'];
const SUIVI_KEYS = ['date', 'taux_realisat', 'valeur_realise'];

/** Texts of the demo data that must never reach an anonymous visitor. */
const PRIVATE_TEXTS = [
  'Disponibilité des ressources humaines', // difficult
  'Formation des agents', // solution
  'Généralisation à tout le territoire', // perspective
  '@reformes.test',
  'password',
  'argon2',
  'created_by',
  'stage',
  'isPublished',
  'is_active',
  'instruction',
  'affectation',
  'user',
];

const CSV_HEADER =
  'Identifiant;Libellé;Type;Nature;Couverture;Structure;Période;Date début;Date fin;État;Objectif global;Population cible;' +
  'Structures impliquées;Montant prévu (EUR);Montant réalisé (EUR)';
/** The CSV's first line: every text cell is quoted (issue 29). */
const CSV_HEADER_LINE = CSV_HEADER.split(';')
  .map((header) => `"${header}"`)
  .join(';');

const sortedKeys = (value: object) => Object.keys(value).sort();
const ids = (rows: Array<{ id: number }>) => rows.map((row) => row.id).sort((a, b) => a - b);

describe('public page of published reforms', () => {
  let t: TestApp;
  let central: Caller;
  let publication: Caller;
  let demo: DemoRow[];
  let structureId: Record<string, number>;
  let natureIds: number[];
  let coverIds: number[];
  /** The reform saisie central creates and publishes, of a type, nature and coverage no demo published reform has. */
  let extra: { id: number; nature_id: number; couverture_id: number };
  let unpublishedId: number;

  const anonymous = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1/${url}` });
  const publicList = async (query = '') => {
    const response = await anonymous(`reformes/public/suivi-result${query}`);
    expect(response.statusCode).toBe(200);
    return response.json().data as { data: PublicRow[]; current_page: number; per_page: number; total: number; last_page: number };
  };
  const publishedDemo = () => demo.filter((row) => row.isPublished && row.is_active);

  beforeAll(async () => {
    t = await createTestApp();
    central = await t.as('saisie central');
    publication = await t.as('publication');
    demo = (await central.get('reformes')).json().data;
    const structureRows = (await central.get('structures')).json().data as Array<{ id: number; sigl: string }>;
    structureId = Object.fromEntries(structureRows.map((row) => [row.sigl, row.id]));
    natureIds = ((await central.get('natures')).json().data as Array<{ id: number }>).map((row) => row.id).sort((a, b) => a - b);
    coverIds = ((await central.get('covers')).json().data as Array<{ id: number }>).map((row) => row.id).sort((a, b) => a - b);

    const usedNatures = new Set(publishedDemo().map((row) => row.nature_id));
    const usedCovers = new Set(publishedDemo().map((row) => row.couverture_id));
    const nature_id = natureIds.find((id) => !usedNatures.has(id)) as number;
    const couverture_id = coverIds.find((id) => !usedCovers.has(id)) as number;
    const created = await central.post('reformes', {
      libref: 'Réforme "pilote"; guichet numérique',
      typeref: 'TRANSVERSALE',
      nature_id,
      objectif_glob: 'Ouvrir un guichet numérique',
      popul_cible: 'Entreprises',
      couverture_id,
      struct_impl: 'Agence du Numérique',
      date_debut: '2030-01-01',
      date_fin: '2031-12-31',
      structure_id: structureId.ANUM,
      difficult: 'Résistance interne confidentielle',
      solution: 'Solution interne confidentielle',
      perspective: 'Perspective interne confidentielle',
    });
    expect(created.statusCode).toBe(201);
    extra = { id: created.json().data.id, nature_id, couverture_id };
    expect((await central.get(`reformes/state/publish/${extra.id}`)).statusCode).toBe(200);

    const hidden = await central.post('reformes', {
      libref: 'Réforme confidentielle non publiée',
      typeref: 'TRANSVERSALE',
      nature_id,
      objectif_glob: 'Rester interne',
      popul_cible: 'Agents',
      couverture_id,
      struct_impl: 'Agence du Numérique',
      date_debut: '2030-02-01',
      date_fin: '2031-12-31',
      structure_id: structureId.MAG,
    });
    unpublishedId = hidden.json().data.id;
  });
  afterAll(() => t.close());

  describe('list (GET reformes/public/suivi-result)', () => {
    it('answers without sign-in, with only published and active reforms, 10 per page by default', async () => {
      const page = await publicList();
      const expected = [...publishedDemo().map((row) => row.id), extra.id];
      expect(expected.length).toBeGreaterThan(1);
      expect(page).toMatchObject({ current_page: 1, per_page: 10, total: expected.length, last_page: 1 });
      expect(ids(page.data)).toEqual([...expected].sort((a, b) => a - b));
      expect(ids(page.data)).not.toContain(unpublishedId);
      const dates = page.data.map((row) => row.date_debut);
      expect(dates).toEqual([...dates].sort().reverse());
    });

    it('carries exactly the public fields in every row, nothing private', async () => {
      const response = await anonymous('reformes/public/suivi-result?per_page=100');
      const rows = response.json().data.data as PublicRow[];
      for (const row of rows) {
        expect(sortedKeys(row)).toEqual(PUBLIC_ROW_KEYS);
        expect(sortedKeys(row.structure)).toEqual(['designation', 'id', 'sigl']);
        expect(sortedKeys(row.nature)).toEqual(['id', 'libnature']);
        expect(sortedKeys(row.couverture)).toEqual(['id', 'lib_couvert']);
      }
      for (const text of [...PRIVATE_TEXTS, 'confidentielle']) expect(response.body).not.toContain(text);
      expect(response.json()).toMatchObject({ isPaginate: true });
    });

    it('pages with per_page and page', async () => {
      const total = publishedDemo().length + 1;
      const second = await publicList('?per_page=2&page=2');
      expect(second).toMatchObject({ current_page: 2, per_page: 2, total, last_page: Math.ceil(total / 2) });
      expect(second.data).toHaveLength(2);
      const first = await publicList('?per_page=2&page=1');
      expect(ids(first.data)).not.toEqual(ids(second.data));
      const beyond = await publicList('?per_page=2&page=99');
      expect(beyond).toMatchObject({ current_page: 99, total, data: [] });
      expect((await anonymous('reformes/public/suivi-result?per_page=0')).statusCode).toBe(422);
    });

    it('filters by structure, nature, coverage and type of reform', async () => {
      const ms = await publicList(`?structure_id=${structureId.MS}`);
      expect(ids(ms.data)).toEqual(ids(publishedDemo().filter((row) => row.structure_id === structureId.MS)));
      expect(ms.data.every((row) => row.structure.sigl === 'MS')).toBe(true);
      expect(ms.total).toBe(ms.data.length);

      expect(ids((await publicList(`?nature_id=${extra.nature_id}`)).data)).toEqual([extra.id]);
      expect(ids((await publicList(`?couverture_id=${extra.couverture_id}`)).data)).toEqual([extra.id]);
      expect(ids((await publicList('?typeref=TRANSVERSALE')).data)).toEqual([extra.id]);
      const sectorielle = await publicList('?typeref=SECTORIELLE');
      expect(ids(sectorielle.data)).toEqual(ids(publishedDemo().filter((row) => row.typeref === 'SECTORIELLE')));
      expect((await publicList(`?structure_id=${structureId.MAG}`)).data).toEqual([]);
      expect((await publicList(`?structure_id=${structureId.ANUM}&typeref=SECTORIELLE`)).total).toBe(0);
      expect((await anonymous('reformes/public/suivi-result?typeref=AUTRE')).statusCode).toBe(422);
    });

    it('searches without regard to accents or case, among published reforms only', async () => {
      const dematerialisation = demo.filter((row) => row.libref.startsWith('Dématérialisation'));
      expect(dematerialisation.some((row) => !row.isPublished)).toBe(true);
      const found = await publicList('?search=DEMATERIALISATION');
      expect(ids(found.data)).toEqual(ids(dematerialisation.filter((row) => row.isPublished && row.is_active)));
      expect(found.data.length).toBeGreaterThan(0);
      expect(ids((await publicList('?search=guichet%20num%C3%A9rique')).data)).toEqual([extra.id]);
      expect(ids((await publicList('?search=GUICHET%20NUMERIQUE')).data)).toEqual([extra.id]);
      expect((await publicList('?search=confidentielle')).total).toBe(0);
      expect((await publicList('?search=zzzz-introuvable')).data).toEqual([]);
      // LIKE wildcards are searched for literally.
      expect((await publicList('?search=%25')).total).toBe(0);
      expect((await publicList('?search=_')).total).toBe(0);
    });

    it('drops a published reform as soon as it is deactivated, and shows it again once reactivated', async () => {
      const target = publishedDemo()[0];
      expect((await central.get(`reformes/${target.id}/state/0`)).statusCode).toBe(200);
      expect(ids((await publicList('?per_page=100')).data)).not.toContain(target.id);
      expect((await anonymous(`reformes/public/${target.id}`)).statusCode).toBe(404);
      expect((await anonymous(`reformes/public/export.json?search=${encodeURIComponent(target.libref)}`)).json()).toEqual([]);
      expect((await central.get(`reformes/${target.id}/state/1`)).statusCode).toBe(200);
      expect(ids((await publicList('?per_page=100')).data)).toContain(target.id);
    });

    it('drops a reform once its publication stops', async () => {
      expect((await publication.get(`reformes/state/unpublish/${extra.id}`)).statusCode).toBe(200);
      expect(ids((await publicList()).data)).not.toContain(extra.id);
      expect((await anonymous(`reformes/public/${extra.id}`)).statusCode).toBe(404);
      expect((await publication.get(`reformes/state/publish/${extra.id}`)).statusCode).toBe(200);
      expect(ids((await publicList()).data)).toContain(extra.id);
    });
  });

  describe('detail (GET reformes/public/{id})', () => {
    it('answers 404 for an unpublished or unknown reform', async () => {
      for (const id of [unpublishedId, demo.find((row) => !row.isPublished)?.id, 999_999]) {
        const response = await anonymous(`reformes/public/${id}`);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ message: "L'élément demandé est introuvable." });
      }
    });

    it('shows the general information, objectives with progress and results with their latest values, nothing private', async () => {
      const target = publishedDemo()[0];
      const response = await anonymous(`reformes/public/${target.id}`);
      expect(response.statusCode).toBe(200);
      const detail = response.json().data;
      expect(sortedKeys(detail)).toEqual(PUBLIC_DETAIL_KEYS);
      expect(detail).toMatchObject({ id: target.id, libref: target.libref });
      expect(detail.etat_label).toEqual(expect.any(String));
      expect(detail.objectifs.length).toBeGreaterThan(0);
      for (const objectif of detail.objectifs) {
        expect(sortedKeys(objectif)).toEqual(OBJECTIF_KEYS);
        for (const result of objectif.results) {
          expect(sortedKeys(result)).toEqual(RESULT_KEYS);
          for (const suivi of result.suivi_results) expect(sortedKeys(suivi)).toEqual(SUIVI_KEYS);
          if (result.suivi_results.length === 0) {
            expect(result.latest).toBeNull();
          } else {
            const last = result.suivi_results.at(-1);
            expect(result.latest).toEqual(last);
            const dates = result.suivi_results.map((suivi: { date: string }) => suivi.date);
            expect(dates).toEqual([...dates].sort());
          }
        }
        const validated = objectif.results.filter((result: { status: number }) => result.status === 1).length;
        expect(objectif.percentage).toBe(objectif.results.length ? (validated / objectif.results.length) * 100 : null);
      }
      for (const text of PRIVATE_TEXTS) expect(response.body).not.toContain(text);
    });

    it('keeps the percentage unrounded (1 of 3 validated) and null for an objective without results', async () => {
      const objectif = (await central.post('objectifs', { reforme_id: extra.id, libobjectif: 'Ouvrir trois guichets' })).json().data as {
        id: number;
      };
      const resultIds: number[] = [];
      for (const libresult of ['Guichet de la capitale', 'Guichet du nord', 'Guichet du sud']) {
        const created = await central.post('resultats', {
          objectif_id: objectif.id,
          libresult,
          indicateur: 'Guichet ouvert (0/1)',
          valeur_cible: '1',
          valeurref: '0',
        });
        expect(created.statusCode).toBe(201);
        resultIds.push(created.json().data.id);
      }
      const empty = (await central.post('objectifs', { reforme_id: extra.id, libobjectif: 'Objectif sans résultat' })).json().data as {
        id: number;
      };
      // No demo account enters follow-up data for ANUM (saisie central only reads it): the records are written directly.
      await t.db.insert(suiviResults).values([
        { result_id: resultIds[0], taux_realisat: '50', valeur_realise: '0.5', date: '2030-06-30' },
        { result_id: resultIds[0], taux_realisat: '100', valeur_realise: '1', date: '2030-12-31' },
      ]);
      expect((await publication.put(`resultats/${resultIds[0]}`, { status: 1 })).statusCode).toBe(200);

      const detail = (await anonymous(`reformes/public/${extra.id}`)).json().data;
      const progress = detail.objectifs.find((row: { id: number }) => row.id === objectif.id);
      expect(progress.percentage).toBe((1 / 3) * 100);
      expect(detail.objectifs.find((row: { id: number }) => row.id === empty.id)).toEqual({
        id: empty.id,
        libobjectif: 'Objectif sans résultat',
        percentage: null,
        results: [],
      });
      const first = progress.results.find((row: { id: number }) => row.id === resultIds[0]);
      expect(first.status).toBe(1);
      expect(first.latest.date).toBe('2030-12-31');
      expect(Number(first.latest.valeur_realise)).toBe(1);
      expect(Number(first.latest.taux_realisat)).toBe(100);
      expect(progress.results.find((row: { id: number }) => row.id === resultIds[1]).latest).toBeNull();
    });
  });

  describe('filter options (GET reformes/public/filters)', () => {
    it('lists only the structures, natures and coverages used by published reforms', async () => {
      const response = await anonymous('reformes/public/filters');
      expect(response.statusCode).toBe(200);
      const { structures, natures, covers } = response.json().data;
      const published = [
        ...publishedDemo(),
        { structure_id: structureId.ANUM, nature_id: extra.nature_id, couverture_id: extra.couverture_id },
      ];
      const unique = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);
      expect(ids(structures)).toEqual(unique(published.map((row) => row.structure_id)));
      expect(ids(structures)).not.toContain(structureId.MAG);
      expect(ids(natures)).toEqual(unique(published.map((row) => row.nature_id)));
      expect(ids(covers)).toEqual(unique(published.map((row) => row.couverture_id)));
      for (const row of structures) expect(sortedKeys(row)).toEqual(['designation', 'id', 'sigl']);
      for (const row of natures) expect(sortedKeys(row)).toEqual(['id', 'libnature']);
      for (const row of covers) expect(sortedKeys(row)).toEqual(['id', 'lib_couvert']);
    });
  });

  describe('open data (GET reformes/public/export.csv and export.json)', () => {
    it('downloads the CSV in UTF-8 with a byte-order mark, French headers and one line per published reform', async () => {
      const response = await anonymous('reformes/public/export.csv');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toContain('reformes-publiees.csv');
      expect(response.body.startsWith('\uFEFF')).toBe(true);
      const lines = response.body.slice(1).split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines[0]).toBe(CSV_HEADER_LINE);
      const body = lines.slice(1, -1);
      expect(body).toHaveLength(publishedDemo().length + 1);
      expect(body.map((line) => Number(line.split(';')[0])).sort((a, b) => a - b)).toEqual(
        [...publishedDemo().map((row) => row.id), extra.id].sort((a, b) => a - b),
      );
      // A label with a quote and a semicolon stays one quoted cell.
      expect(body.find((line) => line.startsWith(`${extra.id};`))).toContain('"Réforme ""pilote""; guichet numérique";"TRANSVERSALE";');
      for (const text of [...PRIVATE_TEXTS, 'confidentielle']) expect(response.body).not.toContain(text);
    });

    it('honours the filters in the CSV', async () => {
      const response = await anonymous(`reformes/public/export.csv?structure_id=${structureId.MS}`);
      const body = response.body.slice(1).split('\r\n').slice(1, -1);
      expect(body.map((line) => Number(line.split(';')[0])).sort((a, b) => a - b)).toEqual(
        ids(publishedDemo().filter((row) => row.structure_id === structureId.MS)),
      );
      const none = await anonymous(`reformes/public/export.csv?structure_id=${structureId.MAG}`);
      expect(none.body).toBe(`\uFEFF${CSV_HEADER_LINE}\r\n`);
    });

    it('downloads the JSON with French keys, honouring the filters', async () => {
      const response = await anonymous('reformes/public/export.json?typeref=TRANSVERSALE');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['content-disposition']).toContain('reformes-publiees.json');
      const rows = response.json() as Array<Record<string, unknown>>;
      expect(rows).toHaveLength(1);
      expect(Object.keys(rows[0])).toEqual(CSV_HEADER.split(';'));
      expect(rows[0]).toMatchObject({
        Identifiant: extra.id,
        Libellé: 'Réforme "pilote"; guichet numérique',
        Type: 'TRANSVERSALE',
        Structure: 'Agence du Numérique',
        'Date début': '2030-01-01',
        Période: 'Du 01/01/2030 au 31/12/2031',
      });
      const all = (await anonymous('reformes/public/export.json')).json() as unknown[];
      expect(all).toHaveLength(publishedDemo().length + 1);
      for (const text of [...PRIVATE_TEXTS, 'confidentielle']) expect(JSON.stringify(all)).not.toContain(text);
    });

    it('writes the JSON as one document indented by two, and both files in the public order (newest start first)', async () => {
      const json = await anonymous('reformes/public/export.json');
      const rows = json.json() as Array<{ Identifiant: number; 'Date début': string }>;
      expect(json.body).toBe(JSON.stringify(rows, null, 2));
      const order = [...rows].sort((a, b) => b['Date début'].localeCompare(a['Date début']) || b.Identifiant - a.Identifiant);
      expect(rows.map((row) => row.Identifiant)).toEqual(order.map((row) => row.Identifiant));
      const csv = (await anonymous('reformes/public/export.csv')).body.slice(1).split('\r\n').slice(1, -1);
      expect(csv.map((line) => Number(line.split(';')[0]))).toEqual(rows.map((row) => row.Identifiant));
      expect((await anonymous('reformes/public/export.json?typeref=AUTRE')).statusCode).toBe(422);
    });

    it('answers 304 to a matching If-None-Match without the file, and a new ETag once a publication changes', async () => {
      const download = (format: string, headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'GET', url: `/api/v1/reformes/public/export.${format}`, remoteAddress: '10.28.0.1', headers });
      const first = await download('json');
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await download('json', { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      expect((await download('json', { 'if-none-match': `"autre", W/${etag}` })).statusCode).toBe(304);
      const csv = await download('csv');
      expect((await download('csv', { 'if-none-match': csv.headers.etag as string })).statusCode).toBe(304);

      expect((await publication.get(`reformes/state/unpublish/${extra.id}`)).statusCode).toBe(200);
      const unpublished = await download('json', { 'if-none-match': etag });
      expect(unpublished.statusCode).toBe(200);
      expect(unpublished.headers.etag).not.toBe(etag);
      expect((unpublished.json() as unknown[]).length).toBe((first.json() as unknown[]).length - 1);
      expect((await publication.get(`reformes/state/publish/${extra.id}`)).statusCode).toBe(200);
      const republished = await download('json', { 'if-none-match': unpublished.headers.etag as string });
      expect(republished.statusCode).toBe(200);
      expect(republished.headers.etag).not.toBe(etag);
      expect(republished.body).toBe(first.body);
    });

    it('refuses an 11th download in a minute from one address (429, Retry-After, French), not from another', async () => {
      const download = (format: string, remoteAddress: string) =>
        t.app.inject({ method: 'GET', url: `/api/v1/reformes/public/export.${format}`, remoteAddress });
      for (let i = 0; i < 10; i++) expect((await download(i % 2 ? 'csv' : 'json', '10.28.0.2')).statusCode).toBe(200);
      const refused = await download('csv', '10.28.0.2');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.json()).toMatchObject({
        message: expect.stringMatching(
          /^Trop de téléchargements des données ouvertes depuis votre adresse\. Réessayez dans \d+ secondes?\.$/,
        ),
      });
      expect((await download('json', '10.28.0.2')).statusCode).toBe(429);
      expect((await download('json', '10.28.0.3')).statusCode).toBe(200);
    });

    it('counts the downloads of one IPv6 /64 together, whatever address of it each comes from (issue 40, item 8)', async () => {
      const download = (remoteAddress: string) =>
        t.app.inject({ method: 'GET', url: '/api/v1/reformes/public/export.json', remoteAddress });
      for (let i = 1; i <= 10; i++) expect((await download(`2001:db8:28::${i}`)).statusCode).toBe(200);
      expect((await download('2001:db8:28::ffff:1')).statusCode).toBe(429);
      expect((await download('2001:db8:28:1::1')).statusCode).toBe(200);
    });
  });
});
