import { normalizeSearchText, REFORME_MESSAGES, WORKFLOW_MESSAGES } from '@reformes/domain';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { aReforme, onePage } from '../../test/reforme-fixtures.ts';
import { renderApp, signInWithRole } from '../../test/render-app.tsx';
import type { ReformeRow } from './reformes-api.ts';

// A planned reform at the publication stage, named after its id.
const row = (id: number, overrides: Partial<ReformeRow> = {}) =>
  aReforme({
    id,
    libref: `Réforme ${id}`,
    date_debut: '2026-03-01',
    periodexe: 'Du 01/03/2026 au 31/12/2026',
    date_enreg: '2026-02-10T09:30:00.000Z',
    etat_mor: 'planifiee',
    montant_prevu: '2500',
    stage: 3,
    ...overrides,
  });

const page = onePage;
const none = { body: { message: 'ok', data: [] } };

const lineOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

describe('reform screens', { timeout: 60_000 }, () => {
  it('lists the reforms with "Publiée?" and sends the filters to the server', async () => {
    signInWithRole('publication');
    const fetchMock = fakeApi({
      'GET reformes': page([row(1, { isPublished: true }), row(2)]),
      'GET natures': { body: { message: 'ok', data: [{ id: 1, libnature: 'Administrative' }] } },
      'GET covers': none,
      'GET structures': none,
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/list-reformes');
    expect(await screen.findByRole('heading', { name: REFORME_MESSAGES.listTitle })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: REFORME_MESSAGES.listTitle });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Libellé', 'Type', 'Période', 'Date début', 'Date fin', 'Etat', 'Publiée?', 'Actions']);
    expect(within(await lineOf('Réforme 1')).getByText('Oui')).toBeInTheDocument();
    expect(within(await lineOf('Réforme 1')).getByRole('button', { name: 'Arrêter la publication' })).toBeInTheDocument();
    expect(within(await lineOf('Réforme 2')).getByText('Non')).toBeInTheDocument();
    expect(within(await lineOf('Réforme 2')).getByText('1 mars 2026')).toBeInTheDocument();
    expect(within(await lineOf('Réforme 2')).getByText('Planifiée')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Nature' }));
    await user.click(await screen.findByRole('option', { name: 'Administrative' }));
    await user.click(screen.getByRole('combobox', { name: 'Type de réforme' }));
    await user.click(await screen.findByRole('option', { name: 'Transversale' }));
    await waitFor(() => {
      const last = new URL(String(fetchMock.mock.calls.filter(([url]) => /\/reformes\?/.test(String(url))).at(-1)?.[0]), 'http://x');
      expect(last.searchParams.get('nature_id')).toBe('1');
      expect(last.searchParams.get('typeref')).toBe('TRANSVERSALE');
      expect(last.searchParams.get('page')).toBe('1');
    });
  });

  it('unpublishes after "Voulez vous arrêter de publier cette réforme ?"', async () => {
    signInWithRole('publication');
    const fetchMock = fakeApi({
      'GET reformes': page([row(1, { isPublished: true })]),
      'GET natures': none,
      'GET covers': none,
      'GET structures': none,
      'GET reformes/state/unpublish/1': { body: { message: WORKFLOW_MESSAGES.unpublished, data: row(1) } },
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/list-reformes');
    await user.click(within(await lineOf('Réforme 1')).getByRole('button', { name: 'Arrêter la publication' }));
    const dialog = await screen.findByRole('dialog', { name: WORKFLOW_MESSAGES.publishTitle });
    expect(within(dialog).getByText(WORKFLOW_MESSAGES.confirmUnpublish)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.unpublished)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('reformes/state/unpublish/1'))).toBe(true);
  });

  it('lists my records with their status and registration time, and prints the detail sheet', async () => {
    signInWithRole('saisie');
    fakeApi({
      'GET reformes/users/get-my-list': page([row(1, { isPublished: true }), row(2, { stage: 1 })]),
      'GET reformes/2': {
        body: { message: 'ok', data: { ...row(2, { stage: 1 }), objectifs: [], files: [], history: [], affectation: null } },
      },
      'GET reformes/2/history': {
        body: {
          message: 'ok',
          isPaginate: true,
          data: {
            current_page: 1,
            per_page: 100,
            total: 1,
            last_page: 1,
            data: [
              {
                key: 'c1',
                at: '2026-02-10T09:30:00Z',
                kind: 'reforme',
                action: 'update',
                entity_id: 2,
                field: 'libref',
                field_label: 'Libellé de la réforme',
                before: 'Ancien libellé',
                after: 'Réforme 2',
                instruction: null,
                actor: { name: 'Awa Dubois', role: 'saisie', structure: 'MS' },
              },
            ],
          },
        },
      },
    });
    const printed: string[] = [];
    window.print = () => {
      printed.push(document.querySelector('.reforme-print-root')?.textContent ?? '');
    };
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/mylist-reformes');
    expect(await screen.findByRole('heading', { name: REFORME_MESSAGES.myListTitle })).toBeInTheDocument();
    const published = await lineOf('Réforme 1');
    expect(within(published).getByText('Publiée')).toBeInTheDocument();
    // Spec §6: edit is shown disabled on my records; delete only while the reform waits at the user's stage.
    expect(within(published).getByRole('button', { name: 'Modifier' })).toBeDisabled();
    expect(within(published).queryByRole('button', { name: 'Supprimer' })).not.toBeInTheDocument();
    const pending = await lineOf('Réforme 2');
    expect(within(pending).getByRole('button', { name: 'Modifier' })).toBeDisabled();
    expect(within(pending).getByRole('button', { name: 'Supprimer' })).toBeEnabled();
    expect(within(pending).getByText('En attente')).toBeInTheDocument();
    expect(within(pending).getByText('01/03/2026')).toBeInTheDocument();
    expect(within(pending).getByText(/^10\/02\/2026 à \d\d:30$/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ajouter' })).toHaveAttribute('href', '/admin/create-reforme');

    await user.click(within(pending).getByRole('button', { name: 'Consulter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Fiche de la réforme' });
    await user.click(await within(dialog).findByRole('button', { name: 'Imprimer' }));
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('Fiche de la réforme : Réforme 2');
    expect(printed[0]).toContain('Population cible');
    expect(printed[0]).not.toContain('Historique');

    // With its history (issue 32): every line of the timeline, read when asked for.
    await user.click(within(dialog).getByRole('checkbox', { name: "Imprimer avec l'historique" }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Imprimer' })).toBeEnabled());
    await waitFor(() => expect(document.querySelector('.reforme-print-root')?.textContent).toContain('Libellé de la réforme'));
    await user.click(within(dialog).getByRole('button', { name: 'Imprimer' }));
    expect(printed[1]).toContain('Historique');
    expect(printed[1]).toContain('Modification (Réforme)');
    expect(printed[1]).toContain('Ancien libellé');
    expect(printed[1]).toContain('Awa Dubois');
  });

  it('searches my records on the server from page 1, with the count, and reset shows them all again', async () => {
    signInWithRole('saisie');
    const mine = Array.from({ length: 14 }, (_, index) =>
      row(index + 1, { libref: index < 12 ? `Guichet ${index + 1}` : `Télépaiement ${index + 1}` }),
    );
    const base = fakeApi({});
    const listed: URL[] = [];
    // The server searches ("contains", accents and case aside) and pages by the query string.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input), 'http://localhost');
        if (!url.pathname.endsWith('/reformes/users/get-my-list')) return base(input, init);
        listed.push(url);
        const found = mine.filter((one) =>
          normalizeSearchText(one.libref).includes(normalizeSearchText(url.searchParams.get('search') ?? '')),
        );
        const current = Number(url.searchParams.get('page'));
        return new Response(
          JSON.stringify({
            message: 'ok',
            isPaginate: true,
            data: {
              data: found.slice((current - 1) * 10, current * 10),
              current_page: current,
              per_page: 10,
              total: found.length,
              last_page: Math.max(1, Math.ceil(found.length / 10)),
            },
          }),
          { headers: { 'Content-Type': 'application/json' } },
        );
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/mylist-reformes');
    expect(await screen.findByText('14 élément(s)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Suivant' }));
    expect(await screen.findByText('Télépaiement 14')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Rechercher' }), 'télépaie');
    expect(await screen.findByText('2 élément(s)')).toBeInTheDocument();
    expect(await screen.findByText('Télépaiement 13')).toBeInTheDocument();
    expect(screen.queryByText('Guichet 1')).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(listed.at(-1)?.search).toBe(`?per_page=10&page=1&search=${encodeURIComponent('télépaie')}`);

    await user.click(screen.getByRole('button', { name: 'Réinitialiser la recherche' }));
    expect(screen.getByRole('textbox', { name: 'Rechercher' })).toHaveValue('');
    expect(await screen.findByText('14 élément(s)')).toBeInTheDocument();
    expect(await screen.findByText('Guichet 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(listed.at(-1)?.search).toBe('?per_page=10&page=1');
  });

  it('searches with the columns of the search screen and opens an attachment with the token', async () => {
    signInWithRole('validation');
    const fetchMock = fakeApi({
      'GET reformes': page([row(1, { files: [{ id: 4, name_file: 'Note de cadrage', chemin: '/api/v1/files/4' }] })]),
      'GET natures': none,
      'GET covers': none,
      'GET structures': none,
      'GET files/4': { body: '%PDF-1.4' },
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/search-reformes');
    const table = await screen.findByRole('table', { name: REFORME_MESSAGES.searchTitle });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      'Libellé',
      'Type',
      'Objectif global',
      'Population cible',
      'Structures impliquées',
      "Période d'exécution",
      'Etat MO',
      'Montant prévu (EUR)',
      'PDF',
      'Actions',
    ]);
    expect(within(await lineOf('Réforme 1')).getByText(/^2\s500,00\s€$/)).toBeInTheDocument();

    const tab = { location: { href: '' }, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    URL.createObjectURL = vi.fn(() => 'blob:fichier-4');
    URL.revokeObjectURL = vi.fn();
    await user.click(within(await lineOf('Réforme 1')).getByRole('button', { name: 'voir fichier : Note de cadrage' }));
    await waitFor(() => expect(tab.location.href).toBe('blob:fichier-4'));
    const [, init] = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/files/4')) ?? [];
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer a');

    await user.type(screen.getByRole('textbox', { name: 'Rechercher' }), 'guichet');
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => new URL(String(url), 'http://x').searchParams.get('search') === 'guichet')).toBe(true),
    );
  });

  it('uploads only PDF files, with a name, without saving the reform', async () => {
    signInWithRole('saisie');
    const fetchMock = fakeApi({
      'GET natures': none,
      'GET covers': none,
      'GET structures': none,
      'POST files': { status: 201, body: { message: REFORME_MESSAGES.fileUploaded, data: { id: 31, name_file: 'Note de cadrage' } } },
    });
    const user = userEvent.setup({ delay: null, applyAccept: false });
    renderApp('/admin/create-reforme');
    await user.click(await screen.findByRole('button', { name: 'Ajouter un fichier' }));
    const dialog = await screen.findByRole('dialog', { name: REFORME_MESSAGES.fileTitle });
    await user.click(within(dialog).getByRole('button', { name: 'Charger' }));
    expect(await within(dialog).findByText(REFORME_MESSAGES.fileName)).toBeInTheDocument();
    expect(within(dialog).getByText(REFORME_MESSAGES.file)).toBeInTheDocument();

    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['png'], 'photo.png', { type: 'image/png' })] } });
    expect(await within(dialog).findByText(REFORME_MESSAGES.pdfOnly)).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: 'Nom du fichier' }), 'Note de cadrage');
    fireEvent.change(input, { target: { files: [new File(['%PDF-1.4'], 'cadrage.pdf', { type: 'application/pdf' })] } });
    await user.click(within(dialog).getByRole('button', { name: 'Charger' }));
    const uploaded = (await screen.findByText(REFORME_MESSAGES.fileUploaded)).closest('[role="alert"]') as HTMLElement;
    expect(within(uploaded).getByText(REFORME_MESSAGES.fileTitle)).toBeInTheDocument();
    // The panel's submit stays in the panel: the reform itself is not sent.
    const posts = fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST').map(([url]) => String(url));
    expect(posts).toEqual(['/api/v1/files']);
    expect(screen.queryByText(REFORME_MESSAGES.libref)).not.toBeInTheDocument();
    await user.click(within(dialog).getAllByRole('button', { name: 'Fermer' }).at(-1) as HTMLElement);
    expect(await screen.findByRole('table', { name: 'Fichiers joints' })).toHaveTextContent('Note de cadrage');
  });

  it('asks for every field of an expected result, with the spec messages', async () => {
    signInWithRole('saisie');
    fakeApi({
      'GET reformes/users/get-by-role': page([row(1, { stage: 1 })]),
      'GET objectifs/by-reforme/1': {
        body: { message: 'ok', data: [{ id: 7, libobjectif: 'Réduire les délais', reforme_id: 1, is_active: true, results: [] }] },
      },
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/treatment-reformes');
    await user.click(within(await lineOf('Réforme 1')).getByRole('button', { name: 'Enregistrer un résultat attendu' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enregistrer un résultat attendu' });
    await user.click(await within(dialog).findByRole('button', { name: 'Enregistrer' }));
    for (const message of [
      "Le Libellé de l'objectif est requis",
      'Le Libellé du résultat est requis',
      "L'indicateur est requis",
      'La valeur cible est requise',
      'La valeur référence est requise est requise',
    ]) {
      expect(await within(dialog).findByText(message)).toBeInTheDocument();
    }
  });
});
