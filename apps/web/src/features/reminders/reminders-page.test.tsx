import { dateTime, type ReminderRun, reminderRunShape, remindersStatusShape } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { storeSignIn } from '../../session/session.ts';
import { fakeApi, shaped } from '../../test/fake-api.ts';
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

const run = (overrides: Partial<ReminderRun> = {}): ReminderRun => ({
  id: 3,
  trigger: 'schedule',
  started_at: '2026-11-23T06:00:00.000Z',
  finished_at: '2026-11-23T06:00:04.000Z',
  mails: 12,
  delivered: 10,
  waiting: 1,
  failed: 1,
  errors: 0,
  ...overrides,
});

/** The value of a term of the last run's description list. */
const termValue = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;

describe('Rappels', { timeout: 30_000 }, () => {
  it('shows the schedule, the threshold and the last run with what became of its mails', async () => {
    signIn();
    fakeApi({ 'GET reminders': shaped(remindersStatusShape, { daily_at: '07:00', no_follow_up_days: 30, last_run: run() }) });
    renderApp('/admin/reminders');

    expect(await screen.findByRole('heading', { name: 'Rappels', level: 1 })).toBeInTheDocument();
    const schedule = await screen.findByRole('region', { name: 'Programmation' });
    expect(schedule).toHaveTextContent('Chaque jour à 07:00 (heure du serveur).');
    expect(schedule).toHaveTextContent('sans donnée de suivi depuis 30 jours ou plus');
    expect(screen.getByRole('region', { name: 'Dernier envoi' })).toHaveTextContent('Partis');
    expect(termValue('Commencé le')).toBe(dateTime('2026-11-23T06:00:00.000Z'));
    expect(termValue('Déclenchement')).toBe('programmé');
    expect(termValue('Courriels mis en file')).toBe('12');
    expect(termValue('Partis')).toBe('10');
    expect(termValue('En attente')).toBe('1');
    expect(termValue('En échec')).toBe('1');
  });

  it('says when the reminders never ran', async () => {
    signIn();
    fakeApi({ 'GET reminders': shaped(remindersStatusShape, { daily_at: '07:00', no_follow_up_days: 45, last_run: null }) });
    renderApp('/admin/reminders');
    expect(await screen.findByText("Les rappels n'ont encore jamais été envoyés.")).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Programmation' })).toHaveTextContent('45 jours ou plus');
  });

  it('sends the reminders now after a confirmation, tells how many mails left and shows the new run', async () => {
    signIn();
    let sent = false;
    const fetchMock = fakeApi({
      'GET reminders': () =>
        shaped(remindersStatusShape, {
          daily_at: '07:00',
          no_follow_up_days: 30,
          last_run: sent ? run({ id: 4, trigger: 'manual', mails: 5, delivered: 5, waiting: 0, failed: 0 }) : null,
        }),
      'POST reminders/run': () => {
        sent = true;
        return shaped(reminderRunShape, run({ id: 4, trigger: 'manual', mails: 5 }), "Rappels envoyés : 5 courriels mis en file d'envoi.");
      },
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/reminders');
    await screen.findByText("Les rappels n'ont encore jamais été envoyés.");

    await user.click(screen.getByRole('button', { name: 'Envoyer les rappels maintenant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Envoyer les rappels' });
    expect(dialog).toHaveTextContent("n'ont pas encore reçus cette semaine");
    expect(fetchMock.calls.filter((call) => call.method === 'POST')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));

    expect(await screen.findByText("Rappels envoyés : 5 courriels mis en file d'envoi.")).toBeInTheDocument();
    await waitFor(() => expect(termValue('Déclenchement')).toBe('à la demande'));
    expect(termValue('Courriels mis en file')).toBe('5');
    expect(fetchMock.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual(['reminders/run']);
  });

  it('shows no send button to whom may only look, and refuses a role without the right', async () => {
    signIn(['jobs.list']);
    fakeApi({ 'GET reminders': shaped(remindersStatusShape, { daily_at: '07:00', no_follow_up_days: 30, last_run: null }) });
    const { unmount } = renderApp('/admin/reminders');
    await screen.findByText("Les rappels n'ont encore jamais été envoyés.");
    expect(screen.queryByRole('button', { name: 'Envoyer les rappels maintenant' })).not.toBeInTheDocument();
    unmount();

    signIn(['dashboard.list'], 'saisie');
    const fetchMock = fakeApi({});
    renderApp('/admin/reminders');
    expect(await screen.findByRole('alert')).toHaveTextContent("Vous n'avez pas les droits nécessaires pour effectuer cette action.");
    expect(fetchMock.calls.filter((call) => call.path.startsWith('reminders'))).toEqual([]);
  });
});
