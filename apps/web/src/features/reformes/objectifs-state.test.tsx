import { MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { pagedAnswer } from '../../test/fake-api.ts';
import { renderApp, renderWithProviders, signInWithRole } from '../../test/render-app.tsx';
import { ObjectifsModal } from './objectifs-modal.tsx';
import { ResultatModal } from './resultat-modal.tsx';

const REFORME = { id: 1, libref: 'Réforme des guichets' };

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

/**
 * A server holding one reform's objectives and results, whose state calls switch `is_active`; a state call
 * waits for `release()` when `hold` is set, so the screen can be seen while it runs.
 */
function fakeServer({ hold = false } = {}) {
  const result = (id: number, libresult: string, is_active: boolean) => ({
    id,
    objectif_id: 11,
    libresult,
    indicateur: 'Nombre',
    valeur_cible: '1',
    valeurref: '0',
    status: 0,
    is_active,
  });
  const results = [result(21, 'Délai réduit', true), result(22, 'Guichet fermé', false)];
  const objectifs = [
    { id: 11, libobjectif: 'Réduire les délais', reforme_id: 1, is_active: true, reforme: REFORME },
    { id: 12, libobjectif: 'Ancien objectif', reforme_id: 1, is_active: false, reforme: REFORME },
  ];
  const tree = () => objectifs.map((objectif) => ({ ...objectif, results: results.filter((row) => row.objectif_id === objectif.id) }));
  let release = () => {};
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const call = `${init.method ?? 'GET'} ${url.pathname.replace('/api/v1/', '')}`;
    if (call === 'GET objectifs/by-reforme/1') return json({ message: 'ok', data: tree() });
    if (call === 'GET objectifs')
      return json(pagedAnswer(tree(), Number(url.searchParams.get('page') ?? 1), Number(url.searchParams.get('per_page'))));
    const state = /^GET (objectifs|resultats)\/(\d+)\/state\/([01])$/.exec(call);
    if (state) {
      if (hold) await new Promise<void>((resolve) => (release = resolve));
      const row = (state[1] === 'objectifs' ? objectifs : results).find((item) => item.id === Number(state[2]));
      if (row) row.is_active = state[3] === '1';
      return json({ message: row?.is_active ? MESSAGES.activated : MESSAGES.deactivated, data: row });
    }
    return new Response(JSON.stringify({ message: 'introuvable' }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const stateCalls = () =>
    fetchMock.mock.calls
      .filter(([input]) => String(input).includes('/state/'))
      .map(([input, init]) => `${String(input).replace('/api/v1/', '')} ${new Headers(init?.headers).get('X-Action')}`);
  return { stateCalls, release: () => release() };
}

function renderModal(modal: 'objectifs' | 'resultat') {
  return renderWithProviders(
    modal === 'objectifs' ? (
      <ObjectifsModal reforme={REFORME} onClose={() => {}} />
    ) : (
      <ResultatModal reforme={REFORME} objectifId={11} onClose={() => {}} />
    ),
  );
}

const lineOf = async (table: HTMLElement, text: string) => (await within(table).findByText(text)).closest('tr') as HTMLElement;

describe('activating and deactivating objectives and expected results', { timeout: 60_000 }, () => {
  it('"Définir les objectifs" shows each state and offers Désactiver or Activer, under "Opération en cours"', async () => {
    signInWithRole('saisie');
    const server = fakeServer({ hold: true });
    const user = userEvent.setup({ delay: null });
    renderModal('objectifs');

    const table = await screen.findByRole('table', { name: 'Objectifs de la réforme' });
    const active = await lineOf(table, 'Réduire les délais');
    const blocked = await lineOf(table, 'Ancien objectif');
    expect(within(active).getByText('Actif')).toBeInTheDocument();
    expect(within(blocked).getByText('Bloqué')).toBeInTheDocument();
    expect(within(active).queryByRole('button', { name: 'Activer' })).not.toBeInTheDocument();
    expect(within(blocked).queryByRole('button', { name: 'Désactiver' })).not.toBeInTheDocument();

    await user.click(within(active).getByRole('button', { name: 'Désactiver' }));
    expect(await screen.findByText(MESSAGES.operationRunning)).toBeInTheDocument();
    server.release();
    expect(await screen.findByText(MESSAGES.deactivated)).toBeInTheDocument();
    await waitFor(() => expect(within(active).getByText('Bloqué')).toBeInTheDocument());
    expect(within(active).getByRole('button', { name: 'Activer' })).toBeInTheDocument();

    await user.click(within(blocked).getByRole('button', { name: 'Activer' }));
    await waitFor(() => expect(server.stateCalls()).toHaveLength(2));
    server.release();
    await waitFor(() => expect(within(blocked).getByText('Actif')).toBeInTheDocument());
    expect(server.stateCalls()).toEqual(['objectifs/11/state/0 status', 'objectifs/12/state/1 status']);
  });

  it('offers neither button without the status right, but still shows the states', async () => {
    signInWithRole('saisie', ['objectifs.status', 'resultats.status']);
    fakeServer();
    renderModal('objectifs');
    const table = await screen.findByRole('table', { name: 'Objectifs de la réforme' });
    expect(within(await lineOf(table, 'Ancien objectif')).getByText('Bloqué')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /^(Activer|Désactiver)$/ })).not.toBeInTheDocument();
  });

  it("lists the objective's expected results with their state, and activates a deactivated one", async () => {
    signInWithRole('saisie');
    const server = fakeServer();
    const user = userEvent.setup({ delay: null });
    renderModal('resultat');

    const table = await screen.findByRole('table', { name: "Résultats attendus de l'objectif" });
    const kept = await lineOf(table, 'Délai réduit');
    const closed = await lineOf(table, 'Guichet fermé');
    expect(within(kept).getByText('Actif')).toBeInTheDocument();
    expect(within(kept).getByRole('button', { name: 'Désactiver' })).toBeInTheDocument();
    expect(within(closed).getByText('Bloqué')).toBeInTheDocument();

    await user.click(within(closed).getByRole('button', { name: 'Activer' }));
    expect(await screen.findByText(MESSAGES.activated)).toBeInTheDocument();
    await waitFor(() => expect(within(closed).getByText('Actif')).toBeInTheDocument());
    expect(server.stateCalls()).toEqual(['resultats/22/state/1 status']);
  });

  it('/admin/objectifs shows the Statut column and the state buttons of the selected row to saisie only', async () => {
    signInWithRole('saisie');
    const server = fakeServer();
    const user = userEvent.setup({ delay: null });
    const view = renderApp('/admin/objectifs');

    const table = await screen.findByRole('table', { name: 'Liste des objectifs' });
    expect(within(table).getByRole('columnheader', { name: 'Statut' })).toBeInTheDocument();
    expect(within(await lineOf(table, 'Ancien objectif')).getByText('Bloqué')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Ancien objectif' }));
    const toolbar = screen.getByRole('toolbar', { name: 'Actions' });
    expect(within(toolbar).queryByRole('button', { name: 'Désactiver' })).not.toBeInTheDocument();
    await user.click(within(toolbar).getByRole('button', { name: 'Activer' }));
    expect(await screen.findByText(MESSAGES.activated)).toBeInTheDocument();
    await waitFor(() => expect(within(table).getAllByText('Actif')).toHaveLength(2));
    expect(server.stateCalls()).toEqual(['objectifs/12/state/1 status']);
    view.unmount();

    signInWithRole('validation');
    fakeServer();
    renderApp('/admin/objectifs');
    await user.click(await screen.findByRole('radio', { name: 'Réduire les délais' }));
    const readOnly = screen.getByRole('toolbar', { name: 'Actions' });
    expect(within(readOnly).queryByRole('button', { name: /^(Activer|Désactiver)$/ })).not.toBeInTheDocument();
  });
});
