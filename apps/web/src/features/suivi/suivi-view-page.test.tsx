import { REFORME_MESSAGES, SUIVI_MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { fakeApi } from '../../test/fake-api.ts';
import { renderApp, signInWithRole } from '../../test/render-app.tsx';
import { fakeSuiviServer, recentReformes, suiviCalls, suiviData } from '../../test/suivi-fixtures.ts';
import type { SuiviReforme } from './suivi-api.ts';

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

function openView(
  role: 'saisie' | 'publication' | 'saisie central',
  path = '/admin/follow-reformes',
  extra: Parameters<typeof fakeApi>[0] = {},
  data: SuiviReforme[] = suiviData(),
) {
  signInWithRole(role);
  const fetchMock = fakeSuiviServer(data, extra);
  const user = userEvent.setup({ delay: null });
  const view = renderApp(path);
  return { user, fetchMock, ...view };
}

const objectivePanel = (name: string) => screen.findByRole('article', { name });

/** The block of one result: from its heading up to its panel. */
async function resultPanel(name: string) {
  const heading = await screen.findByRole('heading', { name, level: 3 });
  return heading.closest('.mantine-Paper-root') as HTMLElement;
}

describe('follow-up view', { timeout: 60_000 }, () => {
  it('shows the chosen reform: objectives with the share of validated results, each result with its figures, records and chart', async () => {
    const { user, router } = openView('saisie');
    await screen.findByRole('heading', { name: SUIVI_MESSAGES.viewTitle });
    await user.click(await screen.findByRole('combobox', { name: 'Réforme' }));
    await user.click(await screen.findByRole('option', { name: 'Guichet unique' }));
    expect(router.state.location.search).toBe('?reforme=1');

    const objectif = await objectivePanel('Simplifier les démarches');
    const bar = within(objectif).getByRole('progressbar', { name: 'Résultats validés : Simplifier les démarches' });
    expect(plain(bar.getAttribute('aria-valuetext'))).toBe('33,3 %');
    expect(Number(bar.getAttribute('aria-valuenow'))).toBe((1 / 3) * 100);
    // Spec §4: the percentage is read unrounded, as text.
    expect(plain(within(objectif).getByText(/33,3/).textContent)).toBe('33,33333333333333 %');

    const empty = await objectivePanel('Réduire les délais');
    expect(within(empty).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(empty).getByText(REFORME_MESSAGES.noResults)).toBeInTheDocument();

    const result = await resultPanel('Démarches en ligne');
    const figure = (term: string) => within(result).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(figure('Indicateur')).toBe('Taux de dématérialisation (%)');
    expect(figure('Valeur cible')).toBe('100');
    expect(figure('Valeur de référence')).toBe('20');
    expect(within(result).getByText(SUIVI_MESSAGES.pending)).toBeInTheDocument();
    const records = within(result).getByRole('table', { name: 'Données de suivi du résultat Démarches en ligne' });
    expect(within(records).getAllByRole('row')).toHaveLength(3);
    const chart = within(result).getByRole('img', { name: /Évolution de la valeur réalisée : Démarches en ligne/ });
    expect(chart).toHaveAccessibleDescription(
      'Valeur cible 100, valeur de référence 20. Valeurs réalisées : 15 janvier 2026 : 25 ; 15 mars 2026 : 40,5.',
    );

    expect(within(await resultPanel('Usagers satisfaits')).getByText(SUIVI_MESSAGES.validated)).toBeInTheDocument();
    const noRecords = await resultPanel('Guichets ouverts');
    expect(within(noRecords).getByText(SUIVI_MESSAGES.noRecords)).toBeInTheDocument();
    expect(within(noRecords).queryByRole('img')).not.toBeInTheDocument();
  });

  it('finds the oldest of many reforms by typing part of its label, with or without accents', async () => {
    // 45 recent reforms, then those of the fixtures, "Guichet unique" the oldest.
    const { user, router, fetchMock } = openView('publication', '/admin/follow-reformes', {}, [
      ...recentReformes(45),
      ...suiviData().reverse(),
    ]);
    const picker = await screen.findByRole('combobox', { name: 'Réforme' });
    await user.click(picker);
    await screen.findByRole('option', { name: 'Réforme récente n° 1' });
    expect(screen.queryByRole('option', { name: 'Guichet unique' })).not.toBeInTheDocument();
    await user.type(picker, 'GUICHÉT');
    await user.click(await screen.findByRole('option', { name: 'Guichet unique' }));
    expect(router.state.location.search).toBe('?reforme=1');
    expect(await objectivePanel('Simplifier les démarches')).toBeInTheDocument();
    expect(picker).toHaveValue('Guichet unique');
    expect(suiviCalls(fetchMock)).toContainEqual({ per_page: '20', page: '1', search: 'GUICHÉT' });
  });

  it('reads the reform of the address by its id, even when it is on no page of the picker', async () => {
    const { fetchMock } = openView('saisie', '/admin/follow-reformes?reforme=1', {}, [...recentReformes(45), ...suiviData().reverse()]);
    expect(await objectivePanel('Simplifier les démarches')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Réforme' })).toHaveValue('Guichet unique');
    expect(suiviCalls(fetchMock)).toContainEqual({ reforme_id: '1' });
  });

  it('says when there is no reform to follow', async () => {
    openView('saisie', '/admin/follow-reformes', {}, []);
    const picker = await screen.findByRole('combobox', { name: 'Réforme' });
    await waitFor(() => expect(picker).toHaveAttribute('placeholder', SUIVI_MESSAGES.noReformes));
  });

  it('says "Aucune donnée de suivi" for a reform without objectives', async () => {
    openView('saisie', '/admin/follow-reformes?reforme=3');
    expect(await screen.findByText(SUIVI_MESSAGES.noFollowUp)).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Réforme' })).toHaveValue('Réforme sans objectif');
  });

  it('offers "Valider" to publication only, on a pending result that has a follow-up record', async () => {
    openView('publication', '/admin/follow-reformes?reforme=1');
    expect(within(await resultPanel('Démarches en ligne')).getByRole('button', { name: /Valider/ })).toBeInTheDocument();
    expect(within(await resultPanel('Usagers satisfaits')).queryByRole('button', { name: /Valider/ })).not.toBeInTheDocument();
    expect(within(await resultPanel('Guichets ouverts')).queryByRole('button', { name: /Valider/ })).not.toBeInTheDocument();
  });

  it.each(['saisie', 'saisie central'] as const)('never offers "Valider" to %s', async (role) => {
    openView(role, '/admin/follow-reformes?reforme=1');
    await resultPanel('Démarches en ligne');
    expect(screen.queryByRole('button', { name: /Valider/ })).not.toBeInTheDocument();
  });

  it('validates a result after "Confirmer ce resultat comme valider ?" and shows the success message', async () => {
    const { user, fetchMock } = openView('publication', '/admin/follow-reformes?reforme=1', {
      'PUT resultats/111': { body: { message: REFORME_MESSAGES.resultValidated, data: { id: 111, status: 1 } } },
    });
    await user.click(within(await resultPanel('Démarches en ligne')).getByRole('button', { name: /Valider/ }));
    const dialog = await screen.findByRole('dialog', { name: SUIVI_MESSAGES.validateTitle });
    expect(within(dialog).getByText(REFORME_MESSAGES.confirmValidateResult)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText(REFORME_MESSAGES.resultValidated)).toBeInTheDocument();
    // The reform is read again, and shows the result validated.
    await waitFor(() => expect(suiviCalls(fetchMock).filter((call) => call.reforme_id === '1')).toHaveLength(2));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(String(put?.[0])).toContain('resultats/111');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ status: 1 });
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const { user, fetchMock } = openView('publication', '/admin/follow-reformes?reforme=1');
    await user.click(within(await resultPanel('Démarches en ligne')).getByRole('button', { name: /Valider/ }));
    const dialog = await screen.findByRole('dialog', { name: SUIVI_MESSAGES.validateTitle });
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });
});
