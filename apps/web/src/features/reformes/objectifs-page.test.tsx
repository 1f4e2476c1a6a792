import { defaultPermissionNames } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { storeSignIn } from '../../session/session.ts';
import { pagedAnswer } from '../../test/fake-api.ts';
import { aUser, renderApp } from '../../test/render-app.tsx';

/** 60 reforms in scope, most recent first; the oldest, "Guichet unique", is on no first page. */
const REFORMES = [
  ...Array.from({ length: 59 }, (_, index) => ({ id: 100 - index, libref: `Réforme récente n° ${index + 1}` })),
  { id: 1, libref: 'Guichet unique' },
];

const OBJECTIF = {
  id: 5,
  libobjectif: 'Réduire les délais',
  reforme_id: 41,
  is_active: true,
  reforme: { id: 41, libref: 'Réforme récente n° 60' },
};

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

const paged = <Row,>(rows: Row[], params: URLSearchParams) =>
  pagedAnswer(rows, Number(params.get('page') ?? 1), Number(params.get('per_page')));

/** The objectives list with one objective, and `GET reformes` searched and paged as the server does. */
function fakeApi() {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const call = `${init.method ?? 'GET'} ${url.pathname.replace('/api/v1/', '')}`;
    if (call === 'GET objectifs') return json(paged([OBJECTIF], url.searchParams));
    if (call === 'GET reformes') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      return json(
        paged(
          REFORMES.filter((row) => row.libref.toLowerCase().includes(search)),
          url.searchParams,
        ),
      );
    }
    if (call === 'PUT objectifs/5') return json({ message: 'Modification effectuée avec succès', data: OBJECTIF });
    return new Response(JSON.stringify({ message: 'introuvable' }), { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('objectives screen', { timeout: 60_000 }, () => {
  it("shows the objective's reform when editing, and finds another one by typing part of its label", async () => {
    storeSignIn({
      access_token: 'a',
      refresh_token: 'r',
      expire_in: 900,
      features: defaultPermissionNames('saisie central'),
      user: aUser({ roles: [{ id: 1, name: 'saisie central' }] }),
    });
    const fetchMock = fakeApi();
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/objectifs');

    await user.click(await screen.findByRole('radio', { name: 'Réduire les délais' }));
    await user.click(screen.getByRole('button', { name: 'Éditer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier un objectif' });
    // The current reform is on no page the picker has loaded: its label comes from the row.
    const picker = within(dialog).getByRole('combobox', { name: /Réforme/ });
    expect(picker).toHaveValue('Réforme récente n° 60');

    await user.click(picker);
    await screen.findByRole('option', { name: 'Réforme récente n° 1' });
    expect(screen.queryByRole('option', { name: 'Guichet unique' })).not.toBeInTheDocument();
    await user.clear(picker);
    await user.type(picker, 'guichet');
    await user.click(await screen.findByRole('option', { name: 'Guichet unique' }));
    expect(picker).toHaveValue('Guichet unique');

    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ libobjectif: 'Réduire les délais', reforme_id: 1 });
    const reformeCalls = fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((url) => url.pathname === '/api/v1/reformes');
    // Never the whole list: always a page.
    expect(reformeCalls.every((url) => url.searchParams.get('per_page') === '20')).toBe(true);
    expect(reformeCalls.map((url) => url.searchParams.get('search'))).toEqual([null, 'guichet']);
  });
});
