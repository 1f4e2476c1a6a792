import { formatEuro, REFORME_MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { parseFrenchDate } from '../../components/french-date-input.tsx';
import { fakeApi } from '../../test/fake-api.ts';
import { aReformeDetail } from '../../test/reforme-fixtures.ts';
import { aUser, renderApp, signInAs } from '../../test/render-app.tsx';
import type { ReformeDetail } from './reformes-api.ts';

// Screens load lazily and the machines are shared: give them time.
const lookups = {
  'GET natures': { body: { message: 'ok', data: [{ id: 1, libnature: 'Administrative', is_active: true }] } },
  'GET covers': { body: { message: 'ok', data: [{ id: 2, lib_couvert: 'Nationale', is_active: true }] } },
  'GET structures': {
    body: { message: 'ok', data: [{ id: 3, designation: 'Ministère de la Santé', sigl: 'MS', is_active: true }] },
  },
};

const REQUIRED = [
  REFORME_MESSAGES.libref,
  REFORME_MESSAGES.typeref,
  REFORME_MESSAGES.nature_id,
  REFORME_MESSAGES.objectif_glob,
  REFORME_MESSAGES.popul_cible,
  REFORME_MESSAGES.couverture_id,
  REFORME_MESSAGES.struct_impl,
  REFORME_MESSAGES.date_debut,
  REFORME_MESSAGES.date_fin,
  REFORME_MESSAGES.periodexe,
];

const detail = (overrides: Partial<ReformeDetail> = {}) => aReformeDetail({ id: 9, montant_prevu: '1500000.00', ...overrides });

function openCreate(role = 'saisie', extra: Parameters<typeof fakeApi>[0] = {}) {
  signInAs(aUser({ roles: [{ id: 1, name: role }] }));
  const fetchMock = fakeApi({ ...lookups, ...extra });
  const user = userEvent.setup({ delay: null });
  const view = renderApp('/admin/create-reforme');
  return { user, fetchMock, ...view };
}

const sent = (fetchMock: ReturnType<typeof fakeApi>, method: string) =>
  fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method);

async function choose(user: ReturnType<typeof userEvent.setup>, label: string | RegExp, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function fillValidForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByRole('textbox', { name: 'Libellé de la réforme' }), 'Guichet unique');
  await choose(user, /Type de réforme/, 'Sectorielle');
  await choose(user, 'Nature', 'Administrative');
  await choose(user, 'Couverture', 'Nationale');
  await user.type(screen.getByRole('textbox', { name: 'Population cible' }), 'Entreprises');
  await user.type(screen.getByRole('textbox', { name: 'Objectif global' }), 'Simplifier les démarches');
  await user.type(screen.getByRole('textbox', { name: 'Structures impliquées' }), 'MS, DGB');
}

describe('reform form', { timeout: 60_000 }, () => {
  it('reads typed French dates and amounts', () => {
    expect(parseFrenchDate('15/01/2026')).toBe('2026-01-15');
    expect(parseFrenchDate('5/1/2026')).toBe('2026-01-05');
    expect(parseFrenchDate('31/02/2026')).toBeNull();
    expect(parseFrenchDate('15/01/26')).toBeNull();
    expect(formatEuro('1234.5')).toBe(new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(1234.5));
    expect(formatEuro(null)).toBe('');
  });

  it('shows the four sections; the structure is chosen by saisie central only', async () => {
    openCreate('saisie');
    expect(await screen.findByRole('group', { name: 'Informations Générales' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Structure et période' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Documentation' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Struture en charge' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ajouter un fichier' })).toBeInTheDocument();
  });

  it('shows every required message on an empty submit, and sends nothing', async () => {
    const { user, fetchMock } = openCreate('saisie central');
    await user.click(await screen.findByRole('button', { name: 'Enregistrer' }));
    for (const message of [...REQUIRED, REFORME_MESSAGES.structure_id]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
    expect(screen.getByRole('group', { name: 'Struture en charge' })).toBeInTheDocument();
    expect(sent(fetchMock, 'POST')).toHaveLength(0);
  });

  it('shows a required message once a field is left empty, not before', async () => {
    const { user } = openCreate();
    const libref = await screen.findByRole('textbox', { name: 'Libellé de la réforme' });
    expect(screen.queryByText(REFORME_MESSAGES.libref)).not.toBeInTheDocument();
    await user.click(libref);
    await user.tab();
    expect(await screen.findByText(REFORME_MESSAGES.libref)).toBeInTheDocument();
    expect(screen.queryByText(REFORME_MESSAGES.popul_cible)).not.toBeInTheDocument();
  });

  it('says "La période d\'execution est requise" once the period is left with a date missing, and no more once both are given', async () => {
    const { user } = openCreate();
    const period = await screen.findByRole('textbox', { name: "Période d'exécution" });
    await user.type(screen.getByRole('textbox', { name: 'Date de début' }), '15/01/2026');
    await user.tab();
    expect(screen.queryByText(REFORME_MESSAGES.periodexe)).not.toBeInTheDocument();
    await user.click(period);
    await user.tab();
    expect(await screen.findByText(REFORME_MESSAGES.periodexe)).toBeInTheDocument();
    expect(period).toHaveAccessibleDescription(REFORME_MESSAGES.periodexe);

    await user.type(screen.getByRole('textbox', { name: 'Date de fin' }), '31/12/2026');
    await user.tab();
    expect(period).toHaveValue('Du 15/01/2026 au 31/12/2026');
    await waitFor(() => expect(screen.queryByText(REFORME_MESSAGES.periodexe)).not.toBeInTheDocument());
  });

  it('builds the period from typed dates and refuses a start after the end with "Date Incorrect"', async () => {
    const { user, fetchMock } = openCreate();
    await fillValidForm(user);
    await user.type(screen.getByRole('textbox', { name: 'Date de début' }), '31/12/2026');
    await user.type(screen.getByRole('textbox', { name: 'Date de fin' }), '15/01/2026');
    await user.tab();
    expect(screen.getByRole('textbox', { name: "Période d'exécution" })).toHaveValue('Du 31/12/2026 au 15/01/2026');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText(REFORME_MESSAGES.dateTitle)).toBeInTheDocument();
    expect(screen.getAllByText(REFORME_MESSAGES.dateOrder).length).toBeGreaterThan(0);
    expect(sent(fetchMock, 'POST')).toHaveLength(0);
  });

  it('sends the reform with numbers for ids and French amounts, then goes to the treatment list', async () => {
    const { user, fetchMock, router } = openCreate('saisie', {
      'POST reformes': { status: 201, body: { message: REFORME_MESSAGES.created, data: detail() } },
      'GET reformes/users/get-by-role': {
        body: { message: 'ok', data: { data: [], current_page: 1, per_page: 10, total: 0, last_page: 1 } },
      },
    });
    await fillValidForm(user);
    await user.type(screen.getByRole('textbox', { name: 'Date de début' }), '15/01/2026');
    await user.type(screen.getByRole('textbox', { name: 'Date de fin' }), '31/12/2026');
    const amount = screen.getByRole('textbox', { name: 'Montant prévu (EUR)' });
    await user.type(amount, '1 234,50');
    await user.tab();
    expect(amount).toHaveValue(formatEuro(1234.5));
    expect(screen.getByRole('textbox', { name: "Période d'exécution" })).toHaveValue('Du 15/01/2026 au 31/12/2026');

    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/treatment-reformes'));
    const [, init] = fetchMock.mock.calls.find(([url, init]) => String(url).endsWith('/reformes') && init?.method === 'POST') ?? [];
    expect(JSON.parse(String(init?.body))).toMatchObject({
      libref: 'Guichet unique',
      typeref: 'SECTORIELLE',
      nature_id: 1,
      couverture_id: 2,
      date_debut: '2026-01-15',
      date_fin: '2026-12-31',
      montant_prevu: 1234.5,
      files: [],
    });
    expect(await screen.findByText(REFORME_MESSAGES.created)).toBeInTheDocument();
  });

  it('shows a refused save titled "Réformes" with the server message under its field', async () => {
    const { user } = openCreate('saisie', {
      'POST reformes': {
        status: 422,
        body: { message: 'Les données envoyées sont invalides.', errorsList: { libref: ['Ce libellé existe déjà'] } },
      },
    });
    await fillValidForm(user);
    await user.type(screen.getByRole('textbox', { name: 'Date de début' }), '15/01/2026');
    await user.type(screen.getByRole('textbox', { name: 'Date de fin' }), '31/12/2026');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    const toast = (await screen.findByText('Les données envoyées sont invalides.')).closest('[role="alert"]') as HTMLElement;
    expect(within(toast).getByText(REFORME_MESSAGES.errorTitle)).toBeInTheDocument();
    expect(screen.getAllByText('Ce libellé existe déjà').length).toBeGreaterThan(0);
  });

  it('on update, starts from the reform and refuses inverted dates without sending anything', async () => {
    signInAs(aUser({ roles: [{ id: 1, name: 'saisie' }] }));
    const fetchMock = fakeApi({ ...lookups, 'GET reformes/9': { body: { message: 'ok', data: detail() } } });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/edit-reforme/9');
    expect(await screen.findByRole('textbox', { name: 'Libellé de la réforme' })).toHaveValue('Guichet unique');
    expect(screen.getByRole('textbox', { name: 'Montant prévu (EUR)' })).toHaveValue(formatEuro(1500000));
    expect(screen.getByRole('textbox', { name: "Période d'exécution" })).toHaveValue('Du 15/01/2026 au 31/12/2026');

    const start = screen.getByRole('textbox', { name: 'Date de début' });
    await user.clear(start);
    await user.type(start, '01/01/2027');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText(REFORME_MESSAGES.dateTitle)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });

  it('locks a published reform for saisie', async () => {
    signInAs(aUser({ roles: [{ id: 1, name: 'saisie' }] }));
    fakeApi({ ...lookups, 'GET reformes/9': { body: { message: 'ok', data: detail({ isPublished: true, stage: 3 }) } } });
    renderApp('/admin/edit-reforme/9');
    expect(await screen.findByText(REFORME_MESSAGES.published)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeDisabled();
  });
});
