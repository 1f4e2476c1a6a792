import { defaultPermissionNames, type RoleName } from '@reformes/domain';
import { storeSignIn } from '../../app/session.ts';
import { aUser } from '../../test/render-app.tsx';
import type { SuiviReforme } from './suivi-api.ts';

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
        {
          id: 11,
          libobjectif: 'Simplifier les démarches',
          results: [
            {
              id: 111,
              libresult: 'Démarches en ligne',
              indicateur: 'Taux de dématérialisation (%)',
              valeur_cible: '100',
              valeurref: '20',
              status: 0,
              suivi_results: [
                { id: 1001, taux_realisat: '20', valeur_realise: '25', date: '2026-01-15' },
                { id: 1002, taux_realisat: '35', valeur_realise: '40.5', date: '2026-03-15' },
              ],
            },
            {
              id: 112,
              libresult: 'Usagers satisfaits',
              indicateur: 'Nombre de bénéficiaires',
              valeur_cible: '5000',
              valeurref: '1000',
              status: 1,
              suivi_results: [{ id: 1003, taux_realisat: '80', valeur_realise: '4000', date: '2026-02-01' }],
            },
            {
              id: 113,
              libresult: 'Guichets ouverts',
              indicateur: 'Nombre de guichets',
              valeur_cible: '12',
              valeurref: '0',
              status: 0,
              suivi_results: [],
            },
          ],
        },
        { id: 12, libobjectif: 'Réduire les délais', results: [] },
      ],
    },
    {
      id: 2,
      libref: 'Carte sanitaire',
      periodexe: 'Du 01/03/2025 au 28/02/2027',
      isPublished: false,
      stage: 1,
      objectifs: [
        {
          id: 21,
          libobjectif: 'Couvrir les régions',
          results: [
            {
              id: 211,
              libresult: 'Régions couvertes',
              indicateur: 'Nombre de régions',
              valeur_cible: '13',
              valeurref: '2',
              status: 0,
              suivi_results: [],
            },
          ],
        },
      ],
    },
    { id: 3, libref: 'Réforme sans objectif', periodexe: 'Du 01/01/2026 au 31/12/2026', isPublished: false, stage: 2, objectifs: [] },
  ];
}

export const suiviAnswer = (data: SuiviReforme[] = suiviData()) => ({ body: { message: 'ok', isPaginate: false, data } });

export function signInWithRole(role: RoleName) {
  storeSignIn({
    access_token: 'a',
    refresh_token: 'r',
    expire_in: 900,
    features: defaultPermissionNames(role),
    user: aUser({ roles: [{ id: 1, name: role }] }),
  });
}
