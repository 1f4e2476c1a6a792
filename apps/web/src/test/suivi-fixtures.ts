import type { SuiviReforme } from '../features/suivi/suivi-api.ts';
import { fakeApi, pagedAnswer } from './fake-api.ts';
import { anObjectifTree, aResultat, aSuivi } from './reforme-fixtures.ts';

/** Three reforms in scope: two objectives with results for the first, one for the second, none for the third. */
export function suiviData(): SuiviReforme[] {
  return [
    {
      id: 1,
      libref: 'Guichet unique',
      periodexe: 'Du 15/01/2026 au 31/12/2027',
      isPublished: true,
      stage: 3,
      objectifs: [
        anObjectifTree({
          id: 11,
          libobjectif: 'Simplifier les démarches',
          results: [
            aResultat({
              id: 111,
              libresult: 'Démarches en ligne',
              indicateur: 'Taux de dématérialisation (%)',
              valeur_cible: '100',
              valeurref: '20',
              status: 0,
              suivi_results: [
                aSuivi({ id: 1001, taux_realisat: '20', valeur_realise: '25', date: '2026-01-15' }),
                aSuivi({ id: 1002, taux_realisat: '35', valeur_realise: '40.5', date: '2026-03-15' }),
              ],
            }),
            aResultat({
              id: 112,
              libresult: 'Usagers satisfaits',
              indicateur: 'Nombre de bénéficiaires',
              valeur_cible: '5000',
              valeurref: '1000',
              status: 1,
              suivi_results: [aSuivi({ id: 1003, taux_realisat: '80', valeur_realise: '4000', date: '2026-02-01' })],
            }),
            aResultat({
              id: 113,
              libresult: 'Guichets ouverts',
              indicateur: 'Nombre de guichets',
              valeur_cible: '12',
              valeurref: '0',
              status: 0,
              suivi_results: [],
            }),
          ],
        }),
        anObjectifTree({ id: 12, libobjectif: 'Réduire les délais', results: [] }),
      ],
    },
    {
      id: 2,
      libref: 'Carte sanitaire',
      periodexe: 'Du 01/03/2025 au 28/02/2027',
      isPublished: false,
      stage: 1,
      objectifs: [
        anObjectifTree({
          id: 21,
          libobjectif: 'Couvrir les régions',
          results: [
            aResultat({
              id: 211,
              libresult: 'Régions couvertes',
              indicateur: 'Nombre de régions',
              valeur_cible: '13',
              valeurref: '2',
              status: 0,
              suivi_results: [],
            }),
          ],
        }),
      ],
    },
    { id: 3, libref: 'Réforme sans objectif', periodexe: 'Du 01/01/2026 au 31/12/2026', isPublished: false, stage: 2, objectifs: [] },
  ];
}

/** `count` reforms without objectives, more recent than those of `suiviData()`: "Réforme récente n° 1"... */
export function recentReformes(count: number): SuiviReforme[] {
  return Array.from({ length: count }, (_, index) => ({
    id: 1000 - index,
    libref: `Réforme récente n° ${index + 1}`,
    periodexe: 'Du 01/01/2026 au 31/12/2026',
    isPublished: false,
    stage: 1,
    objectifs: [],
  }));
}

const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** What `GET reformes/users/get-suivi-result` answers for these query parameters, `data` being most recent first. */
const SUIVI_PATH = 'reformes/users/get-suivi-result';

function suiviAnswerFor(params: URLSearchParams, data: SuiviReforme[]) {
  const reformeId = params.get('reforme_id');
  if (reformeId) return { message: 'ok', isPaginate: false, data: data.filter((row) => String(row.id) === reformeId) };
  const perPage = Number(params.get('per_page') ?? 1000);
  const page = Number(params.get('page') ?? 1);
  const search = folded(params.get('search') ?? '');
  return pagedAnswer(
    data.filter((row) => folded(row.libref).includes(search)),
    page,
    perPage,
  );
}

/**
 * Replaces fetch: `GET reformes/users/get-suivi-result` serves `data` as the server does (pages with a
 * search, or one reform by `reforme_id`); `others` answer every other call.
 */
export function fakeSuiviServer(data: SuiviReforme[] = suiviData(), others: Parameters<typeof fakeApi>[0] = {}) {
  return fakeApi({ ...others, [`GET ${SUIVI_PATH}`]: ({ query }) => ({ body: suiviAnswerFor(query, data) }) });
}

/** The get-suivi-result calls made, as their query parameters. */
export function suiviCalls(api: ReturnType<typeof fakeSuiviServer>) {
  return api.calls.filter((call) => call.path === SUIVI_PATH).map((call) => Object.fromEntries(call.query));
}
