import { normalizeSearchText, type RoleName, WORKFLOW_MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { aReforme, onePage } from '../../test/reforme-fixtures.ts';
import { renderApp, signInWithRole } from '../../test/render-app.tsx';
import type { ReformeRow } from './reformes-api.ts';

// A cross-cutting reform with a legal framework and a budget, on top of the shared fixture.
const row = (overrides: Partial<ReformeRow> = {}) =>
  aReforme({ typeref: 'TRANSVERSALE', cadreinst_mor: 'Décret 2026-1', montant_prevu: '1234.5', ...overrides });

const page = onePage;

function openTreatment(role: RoleName, stage: number, extra: Parameters<typeof fakeApi>[0] = {}) {
  signInWithRole(role);
  const fetchMock = fakeApi({ 'GET reformes/users/get-by-role': page([row({ stage })]), ...extra });
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

const posts = (fetchMock: ReturnType<typeof fakeApi>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => init?.method === 'POST' && String(url).includes('affectations'))
    .map(([, init]) => JSON.parse(String(init?.body)));

/**
 * Opens the treatment list of `role` on a server whose `GET reformes/users/get-by-role` holds `rows`, searched
 * ("contains", accents and case aside) and paged by the query string. Returns the URLs of the list calls.
 */
function openSearchable(role: RoleName, rows: ReturnType<typeof row>[]) {
  signInWithRole(role);
  const fetchMock = fakeApi({});
  const listed: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (!url.pathname.endsWith('/reformes/users/get-by-role')) return fetchMock(input, init);
      listed.push(url);
      const search = normalizeSearchText(url.searchParams.get('search') ?? '');
      const found = rows.filter((one) => normalizeSearchText(one.libref).includes(search));
      const page = Number(url.searchParams.get('page'));
      const perPage = Number(url.searchParams.get('per_page'));
      const data = {
        data: found.slice((page - 1) * perPage, page * perPage),
        current_page: page,
        per_page: perPage,
        total: found.length,
        last_page: Math.max(1, Math.ceil(found.length / perPage)),
      };
      return new Response(JSON.stringify({ message: 'ok', isPaginate: true, data }), { headers: { 'Content-Type': 'application/json' } });
    }),
  );
  const user = userEvent.setup({ delay: null });
  renderApp('/admin/treatment-reformes');
  return { user, listed };
}

const shownLabels = async () => {
  const table = await screen.findByRole('table', { name: WORKFLOW_MESSAGES.treatmentTitle });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((line) => within(line).getAllByRole('cell')[0].textContent);
};

/** A workflow step as `GET reformes/{id}/history` answers it. */
const step = (key: string, action: string, before: string | null, after: string, name: string, instruction: string | null = null) => ({
  key,
  at: '2026-01-12T09:30:00Z',
  kind: 'workflow',
  action,
  entity_id: 5,
  field: 'stage',
  field_label: 'Étape',
  before,
  after,
  instruction,
  actor: { name, role: name === 'Awa Dubois' ? 'saisie' : 'validation', structure: 'MS' },
});

describe('treatment screen', { timeout: 60_000 }, () => {
  it.each([
    ['saisie', 1],
    ['validation', 2],
    ['publication', 3],
  ] as const)('lets %s search the reforms at its stage on the server, and reset shows them all again', async (role, stage) => {
    const { user, listed } = openSearchable(role, [
      row({ id: 1, libref: 'Guichet unique', stage }),
      row({ id: 2, libref: 'Télépaiement des impôts', stage }),
    ]);
    await waitFor(async () => expect(await shownLabels()).toEqual(['Guichet unique', 'Télépaiement des impôts']));

    await user.type(screen.getByRole('textbox', { name: 'Rechercher' }), 'TELEPAIE');
    await waitFor(async () => expect(await shownLabels()).toEqual(['Télépaiement des impôts']));
    expect(screen.getByText('1 élément(s)')).toBeInTheDocument();
    expect(listed.at(-1)?.searchParams.get('search')).toBe('TELEPAIE');

    await user.click(screen.getByRole('button', { name: 'Réinitialiser la recherche' }));
    expect(screen.getByRole('textbox', { name: 'Rechercher' })).toHaveValue('');
    await waitFor(async () => expect(await shownLabels()).toEqual(['Guichet unique', 'Télépaiement des impôts']));
    expect(screen.getByText('2 élément(s)')).toBeInTheDocument();
    expect(listed.at(-1)?.searchParams.has('search')).toBe(false);
  });

  it('pages the searched reforms with their true total, starts each search at page 1 and waits for 2 characters', async () => {
    const { user, listed } = openSearchable(
      'validation',
      Array.from({ length: 40 }, (_, index) =>
        row({ id: index + 1, libref: index < 25 ? `Guichet ${index + 1}` : `Cadastre ${index + 1}`, stage: 2 }),
      ),
    );
    expect(await screen.findByText('40 élément(s)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 4' }));
    await waitFor(async () => expect(await shownLabels()).toContain('Cadastre 40'));

    // One character is not searched; a new search text starts again at page 1 (useListState), of the whole list here.
    await user.type(screen.getByRole('textbox', { name: 'Rechercher' }), 'g');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(listed.every((url) => !url.searchParams.has('search'))).toBe(true);
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

    await user.type(screen.getByRole('textbox', { name: 'Rechercher' }), 'uichet');
    expect(await screen.findByText('25 élément(s)')).toBeInTheDocument();
    await waitFor(async () => expect((await shownLabels())[0]).toBe('Guichet 1'));
    expect(listed.at(-1)?.searchParams.get('page')).toBe('1');
    // Every search asked for its page 1: typing never asked the search's page 4.
    const searched = listed.filter((url) => url.searchParams.has('search'));
    expect(searched.length).toBeGreaterThan(0);
    expect(searched.every((url) => url.searchParams.get('page') === '1')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(async () => expect(await shownLabels()).toEqual(['Guichet 21', 'Guichet 22', 'Guichet 23', 'Guichet 24', 'Guichet 25']));
    expect(listed.at(-1)?.search).toBe('?per_page=10&page=3&search=guichet');
  });

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

  it('lets saisie transmit after "Voulez vous transmettre cet enregistrement ?" titled "Transmission de la réforme"', async () => {
    const { user, fetchMock } = openTreatment('saisie', 1, {
      'POST affectations': { body: { message: WORKFLOW_MESSAGES.transmitted, data: row({ stage: 2 }) } },
    });
    await rowButtons();
    await user.click(screen.getByRole('button', { name: 'Transmettre' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transmission de la réforme' });
    expect(within(dialog).getByText('Voulez vous transmettre cet enregistrement ?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.transmitted)).toBeInTheDocument();
    expect(posts(fetchMock)).toEqual([{ reforme_id: 5, sens: -1 }]);
  });

  it('lets validation send the record on after "Voulez vous envoyer cet enregistrement ?" titled "Transmission de l\'enregistrement"', async () => {
    const { user, fetchMock } = openTreatment('validation', 2, {
      'POST affectations': { body: { message: WORKFLOW_MESSAGES.transmitted, data: row({ stage: 3 }) } },
    });
    await rowButtons();
    await user.click(screen.getByRole('button', { name: 'Transmettre' }));
    const dialog = await screen.findByRole('dialog', { name: "Transmission de l'enregistrement" });
    expect(within(dialog).getByText('Voulez vous envoyer cet enregistrement ?')).toBeInTheDocument();
    expect(within(dialog).queryByText('Voulez vous transmettre cet enregistrement ?')).not.toBeInTheDocument();
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
                  {
                    id: 2,
                    objectif_id: 1,
                    libresult: 'Demandes en ligne',
                    indicateur: 'Part',
                    valeur_cible: '80',
                    valeurref: '10',
                    status: 1,
                  },
                  {
                    id: 3,
                    objectif_id: 1,
                    libresult: 'Guichet ouvert le samedi',
                    indicateur: 'Jours',
                    valeur_cible: '1',
                    valeurref: '0',
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
      'GET reformes/5/history': {
        body: {
          message: 'ok',
          isPaginate: true,
          data: {
            current_page: 1,
            per_page: 10,
            total: 3,
            last_page: 1,
            data: [
              step('w3', 'retour', 'Validation', 'Saisie', 'Jean-Paul Moreau', 'Préciser la population cible'),
              step('w2', 'transmission', 'Saisie', 'Validation', 'Awa Dubois'),
              step('w1', 'creation', null, 'Saisie', 'Awa Dubois'),
            ],
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
    // Spec §4: the validation list reads a result "En attente d'atteinte" or "atteint", and the objective's share unrounded.
    const results = await within(dialog).findByRole('table', { name: 'Résultats attendus : Réduire les délais' });
    const statuses = within(results)
      .getAllByRole('row')
      .slice(1)
      .map((line) => within(line).getAllByRole('cell').at(-1)?.textContent);
    expect(statuses).toEqual(["En attente d'atteinte", 'atteint', "En attente d'atteinte"]);
    expect(within(dialog).queryByText('Validé')).not.toBeInTheDocument();
    expect(within(dialog).getByText(/33,33333333333333\s% validés/)).toBeInTheDocument();

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
    // Newest first (issue 32): action, by whom (role · structure), what, from which stage to which, the instruction.
    expect(lines).toEqual([
      [
        'Retour pour correction',
        'Jean-Paul Moreauvalidation · MS',
        'Circuit de validation',
        'Étape',
        'Validation',
        'Saisie',
        'Préciser la population cible',
      ],
      ['Transmission', 'Awa Duboissaisie · MS', 'Circuit de validation', 'Étape', 'Saisie', 'Validation', '—'],
      ['Création', 'Awa Duboissaisie · MS', 'Circuit de validation', 'Étape', '—', 'Saisie', '—'],
    ]);
  });
});
