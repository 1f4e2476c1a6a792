import type { JobRow } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { storeSignIn } from '../../session/session.ts';
import { type FakeCall, fakeApi, pagedAnswer } from '../../test/fake-api.ts';
import { aUser, renderApp } from '../../test/render-app.tsx';

function signIn(features = ['jobs.list', 'jobs.edit'], role = 'admin') {
  storeSignIn({
    access_token: 'access-1',
    refresh_token: 'refresh-1',
    expire_in: 900,
    features,
    user: aUser({ roles: [{ id: 1, name: role }] }),
  });
}

const job = (id: number, overrides: Partial<JobRow> = {}): JobRow => ({
  id,
  kind: 'mail',
  to: 'panne@reformes.test',
  subject: 'Réformes : votre compte',
  attempts: 50,
  max_attempts: 50,
  last_error: 'connect ECONNREFUSED 127.0.0.1:25',
  run_at: '2026-07-11T09:00:00.000Z',
  created_at: '2026-07-10T09:00:00.000Z',
  failed_at: '2026-07-11T09:30:05.000Z',
  ...overrides,
});

const table = () => screen.findByRole('table', { name: 'Courriels et tâches' });

describe('Courriels et tâches', { timeout: 30_000 }, () => {
  it('lists the failed mails with recipient, subject, attempts, last error and the day it failed', async () => {
    signIn();
    fakeApi({
      'GET jobs': { body: pagedAnswer([job(1), job(2, { kind: 'reset-link', to: 'oubli@reformes.test', subject: null })], 1, 10) },
    });
    renderApp('/admin/jobs');

    const found = await table();
    await within(found).findByText('panne@reformes.test');
    const lines = within(found).getAllByRole('row');
    expect(lines[0]).toHaveTextContent(/Destinataire\s*Objet\s*Tentatives\s*Dernière erreur\s*Échec le\s*Actions/);
    expect(lines[1]).toHaveTextContent('Réformes : votre compte');
    expect(lines[1]).toHaveTextContent('50 / 50');
    expect(lines[1]).toHaveTextContent('connect ECONNREFUSED 127.0.0.1:25');
    expect(lines[1]).toHaveTextContent(dayjs('2026-07-11T09:30:05.000Z').format('DD/MM/YYYY HH:mm'));
    expect(lines[2]).toHaveTextContent('oubli@reformes.test');
    expect(lines[2]).toHaveTextContent('Lien de réinitialisation');
  });

  it('says "Aucune tâche en échec." then, on the filter, asks for the waiting ones and says "Aucune tâche en attente."', async () => {
    signIn();
    const fetchMock = fakeApi({ 'GET jobs': { body: pagedAnswer([], 1, 10) } });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/jobs');
    expect(await screen.findByText('Aucune tâche en échec.')).toBeInTheDocument();

    await user.click(screen.getByText('En attente'));
    expect(await screen.findByText('Aucune tâche en attente.')).toBeInTheDocument();
    const states = fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').searchParams.get('state'));
    expect(states).toContain('failed');
    expect(states.at(-1)).toBe('pending');
    expect(screen.getByRole('columnheader', { name: 'Prochain essai' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Relancer/ })).not.toBeInTheDocument();
  });

  it('retries a failed mail after confirmation, with a toast, and reloads the list', async () => {
    signIn();
    let retried = false;
    const calls: FakeCall[] = [];
    fakeApi({
      'GET jobs': (call) => {
        calls.push(call);
        return { body: pagedAnswer(retried ? [] : [job(7)], 1, 10) };
      },
      'POST jobs/7/retry': () => {
        retried = true;
        return { body: { message: 'Tâche relancée : elle sera tentée de nouveau dans un instant.' } };
      },
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/jobs');
    await within(await table()).findByText('panne@reformes.test');

    await user.click(screen.getByRole('button', { name: 'Relancer panne@reformes.test' }));
    const dialog = await screen.findByRole('dialog', { name: 'Relancer la tâche' });
    await user.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));

    expect(await screen.findByText('Tâche relancée : elle sera tentée de nouveau dans un instant.')).toBeInTheDocument();
    expect(await screen.findByText('Aucune tâche en échec.')).toBeInTheDocument();
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2));
  });

  it('refuses a role without the right, before asking the server', async () => {
    signIn(['dashboard.list'], 'saisie');
    const fetchMock = fakeApi({});
    renderApp('/admin/jobs');
    expect(await screen.findByRole('alert')).toHaveTextContent("Vous n'avez pas les droits nécessaires pour effectuer cette action.");
    expect(fetchMock.mock.calls.filter(([input]) => String(input).includes('/jobs'))).toEqual([]);
  });
});
