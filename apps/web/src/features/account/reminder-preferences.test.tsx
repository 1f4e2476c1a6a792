import { reminderPreferencesShape } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi, lastBody, shaped } from '../../test/fake-api.ts';
import { renderApp, signInAs } from '../../test/render-app.tsx';

describe('Mon compte, « Rappels » (issue 32)', { timeout: 30_000 }, () => {
  it('shows each digest as a labelled switch and saves the choice, with a toast', async () => {
    signInAs();
    const fetchMock = fakeApi({
      'GET api/user/reminders': shaped(reminderPreferencesShape, { structure_digest: true, portfolio_digest: true }),
      'PUT api/user/reminders': (call) =>
        shaped(
          reminderPreferencesShape,
          call.body as { structure_digest: boolean; portfolio_digest: boolean },
          'Vos préférences de rappel sont enregistrées.',
        ),
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/user-account');
    await user.click(await screen.findByRole('tab', { name: 'Rappels' }));
    const panel = screen.getByRole('tabpanel', { name: 'Rappels' });

    const structure = await within(panel).findByRole('switch', { name: /^Recevoir le résumé des réformes à suivre de ma structure/ });
    const portfolio = within(panel).getByRole('switch', { name: /^Recevoir le résumé hebdomadaire du portefeuille/ });
    expect(structure).toBeChecked();
    expect(portfolio).toBeChecked();
    expect(within(panel).getByText(/Pour les comptes de saisie/)).toBeInTheDocument();

    await user.click(structure);
    expect(structure).not.toBeChecked();
    await user.click(within(panel).getByRole('button', { name: 'Enregistrer mes rappels' }));

    expect(await screen.findByText('Vos préférences de rappel sont enregistrées.')).toBeInTheDocument();
    await waitFor(() =>
      expect(lastBody(fetchMock.calls, 'PUT', 'api/user/reminders')).toEqual({ structure_digest: false, portfolio_digest: true }),
    );
    expect(structure).not.toBeChecked();
  });

  it("shows the server's refusal titled « Rappels par courriel »", async () => {
    signInAs();
    fakeApi({
      'GET api/user/reminders': shaped(reminderPreferencesShape, { structure_digest: false, portfolio_digest: true }),
      'PUT api/user/reminders': {
        status: 422,
        body: { message: 'Les données fournies ne sont pas valides.', errorsList: { structure_digest: ['Indiquez oui ou non'] } },
      },
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/user-account');
    await user.click(await screen.findByRole('tab', { name: 'Rappels' }));
    const panel = screen.getByRole('tabpanel', { name: 'Rappels' });
    expect(await within(panel).findByRole('switch', { name: /de ma structure/ })).not.toBeChecked();
    await user.click(within(panel).getByRole('button', { name: 'Enregistrer mes rappels' }));
    expect(await screen.findByText('Rappels par courriel')).toBeInTheDocument();
  });
});
