import { defaultPermissionNames, type RoleName, WORKFLOW_MESSAGES } from '@reformes/domain';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { storeSignIn } from '../../app/session.ts';
import { aUser, fakeServer, renderApp } from '../../test/render-app.tsx';

configure({ asyncUtilTimeout: 10_000 });

function row(overrides: Record<string, unknown> = {}) {
  return {
    id: 5,
    libref: 'Guichet unique',
    typeref: 'TRANSVERSALE',
    nature_id: 1,
    objectif_glob: 'Simplifier',
    popul_cible: 'Entreprises',
    couverture_id: 2,
    struct_impl: 'MS',
    date_debut: '2026-01-15',
    date_fin: '2026-12-31',
    periodexe: 'Du 15/01/2026 au 31/12/2026',
    date_enreg: '2026-01-10T09:30:00.000Z',
    cadreinst_mor: 'Décret 2026-1',
    etat_mor: 'en_cours',
    montant_prevu: '1234.5',
    montant_trealise: null,
    difficult: null,
    solution: null,
    perspective: null,
    isPublished: false,
    is_active: true,
    stage: 1,
    structure_id: 3,
    nature: { id: 1, libnature: 'Administrative' },
    couverture: { id: 2, lib_couvert: 'Nationale' },
    structure: { id: 3, designation: 'Ministère de la Santé', sigl: 'MS' },
    files: [],
    ...overrides,
  };
}

const page = (rows: unknown[]) => ({
  body: { message: 'ok', data: { data: rows, current_page: 1, per_page: 10, total: rows.length, last_page: 1 } },
});

function openTreatment(role: RoleName, stage: number, extra: Parameters<typeof fakeServer>[0] = {}) {
  storeSignIn({
    access_token: 'a',
    refresh_token: 'r',
    expire_in: 900,
    features: defaultPermissionNames(role),
    user: aUser({ roles: [{ id: 1, name: role }] }),
  });
  const fetchMock = fakeServer({ 'GET reformes/users/get-by-role': page([row({ stage })]), ...extra });
  const user = userEvent.setup({ delay: null });
  renderApp('/admin/treatment-reformes');
  return { user, fetchMock };
}

const rowButtons = async () => {
  const table = await screen.findByRole('table', { name: WORKFLOW_MESSAGES.treatmentTitle });
  const cell = await within(table).findByText('Guichet unique');
  return within(cell.closest('tr') as HTMLElement)
    .getAllByRole('button')
    .map((button) => button.getAttribute('aria-label'));
};

const posts = (fetchMock: ReturnType<typeof fakeServer>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => init?.method === 'POST' && String(url).includes('affectations'))
    .map(([, init]) => JSON.parse(String(init?.body)));

describe('treatment screen', { timeout: 60_000 }, () => {
  it('lists the reforms at the stage with the columns of spec §2.10 and the long French dates', async () => {
    openTreatment('saisie', 1);
    expect(await screen.findByRole('heading', { name: 'Liste des réformes à valider' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: WORKFLOW_MESSAGES.treatmentTitle });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Libellé', 'Type', 'Période', 'Date début', 'Date fin', 'Actions']);
    expect(await within(table).findByText('15 janvier 2026')).toBeInTheDocument();
    expect(within(table).getByText('Transversale')).toBeInTheDocument();
  });

  it('gives saisie transmit (up) and the objectives and results modals, not return nor publish', async () => {
    openTreatment('saisie', 1);
    expect(await rowButtons()).toEqual([
      'Consulter',
      'Modifier',
      'Supprimer',
      'Définir les objectifs',
      'Enregistrer un résultat attendu',
      'Transmettre',
    ]);
  });

  it('gives publication return (down) and publish (right), never transmit', async () => {
    openTreatment('publication', 3);
    const buttons = await rowButtons();
    expect(buttons).toContain('Retourner pour correction');
    expect(buttons).toContain('Publier');
    expect(buttons).not.toContain('Transmettre');
  });

  it('transmits after "Voulez vous transmettre cet enregistrement ?"', async () => {
    const { user, fetchMock } = openTreatment('validation', 2, {
      'POST affectations': { body: { message: WORKFLOW_MESSAGES.transmitted, data: row({ stage: 3 }) } },
    });
    await rowButtons();
    await user.click(screen.getByRole('button', { name: 'Transmettre' }));
    const dialog = await screen.findByRole('dialog', { name: WORKFLOW_MESSAGES.transmitTitle });
    expect(within(dialog).getByText(WORKFLOW_MESSAGES.confirmTransmit)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.transmitted)).toBeInTheDocument();
    expect(posts(fetchMock)).toEqual([{ reforme_id: 5, sens: -1 }]);
  });

  it('requires an instruction to return for correction', async () => {
    const { user, fetchMock } = openTreatment('validation', 2, {
      'POST affectations': { body: { message: WORKFLOW_MESSAGES.returned, data: row({ stage: 1 }) } },
    });
    await rowButtons();
    await user.click(screen.getByRole('button', { name: 'Retourner pour correction' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retourner pour correction' });
    await user.click(within(dialog).getByRole('button', { name: 'Retourner' }));
    expect(await within(dialog).findByText(WORKFLOW_MESSAGES.instructionRequired)).toBeInTheDocument();
    expect(posts(fetchMock)).toEqual([]);

    await user.type(within(dialog).getByRole('textbox', { name: /Instruction/ }), 'Préciser la population cible');
    await user.click(within(dialog).getByRole('button', { name: 'Retourner' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.returned)).toBeInTheDocument();
    expect(posts(fetchMock)).toEqual([{ reforme_id: 5, sens: 1, instruction: 'Préciser la population cible' }]);
  });

  it('shows a refused publication titled "Publication de réforme"', async () => {
    const { user } = openTreatment('publication', 3, {
      'GET reformes/state/publish/5': { status: 409, body: { message: WORKFLOW_MESSAGES.wrongStage } },
    });
    await rowButtons();
    await user.click(screen.getByRole('button', { name: 'Publier' }));
    const dialog = await screen.findByRole('dialog', { name: WORKFLOW_MESSAGES.publishTitle });
    expect(within(dialog).getByText(WORKFLOW_MESSAGES.confirmPublish)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));
    const message = await screen.findByText(WORKFLOW_MESSAGES.wrongStage);
    await waitFor(() =>
      expect(within(message.closest('[role="alert"]') as HTMLElement).getByText(WORKFLOW_MESSAGES.publishTitle)).toBeVisible(),
    );
  });

  it('shows the detail with its tabs, the return banner and the history', async () => {
    const { user } = openTreatment('saisie', 1, {
      'GET reformes/5': {
        body: {
          message: 'ok',
          data: {
            ...row(),
            files: [{ id: 8, name_file: 'Rapport initial', original_name: 'rapport.pdf', size: 100 }],
            objectifs: [
              {
                id: 1,
                libobjectif: 'Réduire les délais',
                reforme_id: 5,
                is_active: true,
                results: [
                  {
                    id: 1,
                    objectif_id: 1,
                    libresult: 'Délai divisé par deux',
                    indicateur: 'Jours',
                    valeur_cible: '15',
                    valeurref: '30',
                    status: 0,
                  },
                ],
              },
            ],
            history: [
              {
                event: 'creation',
                sens: 0,
                from_stage: null,
                to_stage: 1,
                instruction: null,
                created_at: '2026-01-10T09:30:00Z',
                user: 'Awa Dubois',
              },
              {
                event: 'transmission',
                sens: -1,
                from_stage: 1,
                to_stage: 2,
                instruction: null,
                created_at: '2026-01-11T09:30:00Z',
                user: 'Awa Dubois',
              },
              {
                event: 'retour',
                sens: 1,
                from_stage: 2,
                to_stage: 1,
                instruction: 'Préciser la population cible',
                created_at: '2026-01-12T09:30:00Z',
                user: 'Jean-Paul Moreau',
              },
            ],
            affectation: { instruction: 'Préciser la population cible' },
          },
        },
      },
    });
    await rowButtons();
    await user.click(screen.getByRole('button', { name: 'Consulter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Fiche de la réforme' });
    expect(await within(dialog).findByText(WORKFLOW_MESSAGES.returnedBanner)).toBeInTheDocument();
    expect(within(dialog).getByText('Instruction : Préciser la population cible')).toBeInTheDocument();
    expect(within(dialog).getByRole('rowheader', { name: 'Cadre institutionnel' })).toBeInTheDocument();
    expect(within(dialog).getByText('Décret 2026-1')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('tab', { name: 'Objectifs et résultats attendus' }));
    expect(await within(dialog).findByText('Délai divisé par deux')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('tab', { name: 'Fichiers joints' }));
    expect(await within(dialog).findByText('Rapport initial')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'voir fichier : Rapport initial' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('tab', { name: 'Historique' }));
    const history = await within(dialog).findByRole('table', { name: 'Historique de la réforme' });
    const lines = within(history)
      .getAllByRole('row')
      .slice(1)
      .map((line) =>
        within(line)
          .getAllByRole('cell')
          .slice(1)
          .map((cell) => cell.textContent),
      );
    expect(lines).toEqual([
      ['Création', 'Awa Dubois', '—', 'Saisie', '—'],
      ['Transmission', 'Awa Dubois', 'Saisie', 'Validation', '—'],
      ['Retour pour correction', 'Jean-Paul Moreau', 'Validation', 'Saisie', 'Préciser la population cible'],
    ]);
  });
});
