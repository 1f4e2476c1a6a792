import { SUIVI_MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { fakeApi } from '../../test/fake-api.ts';
import { renderApp, signInWithRole } from '../../test/render-app.tsx';
import { fakeSuiviServer, recentReformes, suiviCalls, suiviData } from '../../test/suivi-fixtures.ts';
import type { SuiviReforme } from './suivi-api.ts';

type User = ReturnType<typeof userEvent.setup>;

function openEntry(role: 'saisie' | 'validation', extra: Parameters<typeof fakeApi>[0] = {}, data: SuiviReforme[] = suiviData()) {
  signInWithRole(role);
  const fetchMock = fakeSuiviServer(data, extra);
  const user = userEvent.setup({ delay: null });
  renderApp('/admin/follow-reforme-create');
  return { user, fetchMock };
}

const combobox = (name: string) => screen.getByRole('combobox', { name });

async function optionsOf(user: User, name: string) {
  await waitFor(() => expect(combobox(name)).toBeEnabled());
  await user.click(combobox(name));
  const listbox = await screen.findByRole('listbox');
  const labels = within(listbox)
    .queryAllByRole('option')
    .map((option) => option.textContent);
  await user.keyboard('{Escape}');
  return labels;
}

async function choose(user: User, name: string, option: string) {
  // Objectifs waits for the chosen reform to load.
  await waitFor(() => expect(combobox(name)).toBeEnabled());
  await user.click(combobox(name));
  await user.click(await screen.findByRole('option', { name: option }));
}

async function chooseResult(user: User, reforme = 'Guichet unique', objectif = 'Simplifier les démarches', result = 'Démarches en ligne') {
  await screen.findByRole('heading', { name: SUIVI_MESSAGES.entryTitle });
  await choose(user, 'Réformes', reforme);
  await choose(user, 'Objectifs', objectif);
  await choose(user, 'Résultat attendu', result);
}

const sent = (fetchMock: ReturnType<typeof fakeSuiviServer>, method: string) =>
  fetchMock.mock.calls.filter(([, init]) => (init?.method ?? 'GET') === method);

describe('follow-up data entry', { timeout: 60_000 }, () => {
  it('narrows each select to the choice above it, and clears the lower choices when an upper one changes', async () => {
    const { user } = openEntry('saisie');
    await screen.findByRole('heading', { name: SUIVI_MESSAGES.entryTitle });
    expect(combobox('Réformes')).toBeEnabled();
    expect(combobox('Objectifs')).toBeDisabled();
    expect(combobox('Résultat attendu')).toBeDisabled();

    await choose(user, 'Réformes', 'Guichet unique');
    expect(await optionsOf(user, 'Objectifs')).toEqual(['Simplifier les démarches', 'Réduire les délais']);
    expect(combobox('Résultat attendu')).toBeDisabled();

    await choose(user, 'Objectifs', 'Simplifier les démarches');
    expect(await optionsOf(user, 'Résultat attendu')).toEqual(['Démarches en ligne', 'Usagers satisfaits', 'Guichets ouverts']);
    await choose(user, 'Résultat attendu', 'Démarches en ligne');

    const table = await screen.findByRole('table', { name: 'Données de suivi du résultat Démarches en ligne' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0])
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Taux de réalisation', 'Valeur réalisée', 'Date']);
    expect(
      within(rows[2])
        .getAllByRole('cell')
        .map((cell) => cell.textContent?.replace(/[\u00a0\u202f]/g, ' ')),
    ).toEqual(['35 %', '40,5', '15 mars 2026']);

    await choose(user, 'Réformes', 'Carte sanitaire');
    expect(combobox('Objectifs')).toHaveValue('');
    expect(combobox('Résultat attendu')).toHaveValue('');
    expect(combobox('Résultat attendu')).toBeDisabled();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(await optionsOf(user, 'Objectifs')).toEqual(['Couvrir les régions']);
  });

  it('finds the oldest of many reforms by typing part of its label, and offers its objectives', async () => {
    // 45 recent reforms, then those of the fixtures, "Guichet unique" the oldest.
    const { user, fetchMock } = openEntry('saisie', {}, [...recentReformes(45), ...suiviData().reverse()]);
    await screen.findByRole('heading', { name: SUIVI_MESSAGES.entryTitle });
    await user.click(combobox('Réformes'));
    expect(await screen.findByRole('option', { name: 'Réforme récente n° 1' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Guichet unique' })).not.toBeInTheDocument();
    expect(screen.getByRole('status').textContent?.replace(/[\u00a0\u202f]/g, ' ')).toBe('20 sur 48 — précisez la recherche');

    await user.type(combobox('Réformes'), 'guichet');
    await user.click(await screen.findByRole('option', { name: 'Guichet unique' }));
    expect(combobox('Réformes')).toHaveValue('Guichet unique');
    expect(await optionsOf(user, 'Objectifs')).toEqual(['Simplifier les démarches', 'Réduire les délais']);
    expect(suiviCalls(fetchMock)).toEqual([
      { per_page: '20', page: '1' },
      { per_page: '20', page: '1', search: 'guichet' },
      { reforme_id: '1' },
    ]);
  });

  it('says when there is no reform to follow', async () => {
    openEntry('saisie', {}, []);
    await waitFor(() => expect(combobox('Réformes')).toHaveAttribute('placeholder', SUIVI_MESSAGES.noReformes));
  });

  it('warns "Veuillez sélectionner un résultat" when Ajouter is clicked before a result is chosen', async () => {
    const { user } = openEntry('saisie');
    await screen.findByRole('heading', { name: SUIVI_MESSAGES.entryTitle });
    await choose(user, 'Réformes', 'Guichet unique');
    await user.click(screen.getByRole('button', { name: 'Ajouter' }));
    expect(await screen.findByText(SUIVI_MESSAGES.resultRequired)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('refuses a date earlier than the last record with the "Date Incorrect" alert, and sends nothing', async () => {
    const { user, fetchMock } = openEntry('saisie');
    await chooseResult(user);
    await user.click(screen.getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: SUIVI_MESSAGES.addTitle });
    await user.type(within(dialog).getByRole('textbox', { name: /Taux de réalisation/ }), '50');
    await user.type(within(dialog).getByRole('textbox', { name: /Valeur réalisée/ }), '60');
    await user.type(within(dialog).getByRole('textbox', { name: /Date/ }), '14/03/2026');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    const alert = (await screen.findAllByText(SUIVI_MESSAGES.dateBeforeLast))[0];
    expect(alert).toBeInTheDocument();
    expect(screen.getByText(SUIVI_MESSAGES.dateTitle)).toBeInTheDocument();
    expect(sent(fetchMock, 'POST')).toHaveLength(0);
    expect(screen.getByRole('dialog', { name: SUIVI_MESSAGES.addTitle })).toBeInTheDocument();
  });

  it('refuses negative or non-numeric values with their messages', async () => {
    const { user, fetchMock } = openEntry('saisie');
    await chooseResult(user);
    await user.click(screen.getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: SUIVI_MESSAGES.addTitle });
    await user.type(within(dialog).getByRole('textbox', { name: /Taux de réalisation/ }), '-5');
    await user.type(within(dialog).getByRole('textbox', { name: /Valeur réalisée/ }), 'beaucoup');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(dialog).findByText(SUIVI_MESSAGES.rate)).toBeInTheDocument();
    expect(within(dialog).getByText(SUIVI_MESSAGES.value)).toBeInTheDocument();
    expect(within(dialog).getByText(SUIVI_MESSAGES.date)).toBeInTheDocument();
    expect(sent(fetchMock, 'POST')).toHaveLength(0);
  });

  it('records French decimals and a typed date, then shows the server message', async () => {
    const { user, fetchMock } = openEntry('saisie', {
      'POST suivi-results': { status: 201, body: { message: SUIVI_MESSAGES.created, data: { id: 9 } } },
    });
    await chooseResult(user);
    await user.click(screen.getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: SUIVI_MESSAGES.addTitle });
    await user.type(within(dialog).getByRole('textbox', { name: /Taux de réalisation/ }), '47,5');
    await user.type(within(dialog).getByRole('textbox', { name: /Valeur réalisée/ }), '1 250,75');
    await user.type(within(dialog).getByRole('textbox', { name: /Date/ }), '15/03/2026');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    expect(await screen.findByText(SUIVI_MESSAGES.created)).toBeInTheDocument();
    const [[, init]] = sent(fetchMock, 'POST');
    expect(JSON.parse(String(init?.body))).toEqual({ result_id: 111, taux_realisat: 47.5, valeur_realise: 1250.75, date: '2026-03-15' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The chosen reform is read again, with its new record.
    await waitFor(() => expect(suiviCalls(fetchMock).filter((call) => call.reforme_id === '1')).toHaveLength(2));
  });

  it('shows a refusal of the server titled "Donnée de suivi"', async () => {
    const { user } = openEntry('saisie', {
      'POST suivi-results': { status: 422, body: { message: SUIVI_MESSAGES.dateBeforeLast, errorsList: { date: ['Autre refus'] } } },
    });
    await chooseResult(user);
    await user.click(screen.getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: SUIVI_MESSAGES.addTitle });
    await user.type(within(dialog).getByRole('textbox', { name: /Taux de réalisation/ }), '50');
    await user.type(within(dialog).getByRole('textbox', { name: /Valeur réalisée/ }), '60');
    await user.type(within(dialog).getByRole('textbox', { name: /Date/ }), '20/03/2026');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText(SUIVI_MESSAGES.title)).toBeInTheDocument();
    expect(screen.getByText('Autre refus')).toBeInTheDocument();
  });

  it('hides the Action column and "Retirer" from saisie, who may not delete a record', async () => {
    const { user } = openEntry('saisie');
    await chooseResult(user);
    const table = await screen.findByRole('table', { name: /Données de suivi du résultat/ });
    expect(within(table).queryByRole('columnheader', { name: 'Action' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /Retirer/ })).not.toBeInTheDocument();
  });

  it('lets validation remove a record after the confirmation', async () => {
    const { user, fetchMock } = openEntry('validation', {
      'DELETE suivi-results/1002': { body: { message: 'Suppression effectuée avec succès' } },
    });
    await chooseResult(user);
    const table = await screen.findByRole('table', { name: /Données de suivi du résultat/ });
    expect(within(table).getByRole('columnheader', { name: 'Action' })).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: 'Retirer la donnée du 15 mars 2026' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suppression' });
    expect(sent(fetchMock, 'DELETE')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText('Suppression effectuée avec succès')).toBeInTheDocument();
    expect(String(sent(fetchMock, 'DELETE')[0][0])).toContain('suivi-results/1002');
  });
});
