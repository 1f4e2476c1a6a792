import { MESSAGES } from '@reformes/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { render } from '../html.ts';
import { forgotPasswordPageHtml } from './auth-markup.ts';
import { startForgotPassword } from './forgot-password-form.ts';

function openPage() {
  render(document.body, forgotPasswordPageHtml());
  startForgotPassword();
  return userEvent.setup();
}

describe('forgotten-password page without React (issue 34)', { timeout: 30_000 }, () => {
  it('requires the email and sends nothing without it', async () => {
    const fetchMock = fakeApi({});
    const user = openPage();
    await user.click(screen.getByRole('button', { name: 'Récupérer' }));
    expect(await screen.findByText(MESSAGES.emailRequired)).toBeVisible();
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole('link', { name: 'Retour à la connexion' })).toHaveAttribute('href', '/auth/login');
  });

  it('confirms that the email was sent, in place of the form', async () => {
    const fetchMock = fakeApi({ 'POST api/forgot-password': { body: { message: MESSAGES.forgotAnswer } } });
    const user = openPage();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'awa@reformes.test');
    await user.click(screen.getByRole('button', { name: 'Récupérer' }));
    expect(await screen.findByText(MESSAGES.forgotSent)).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.forgotSentDetail);
    expect(screen.queryByRole('button', { name: 'Récupérer' })).not.toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ email: 'awa@reformes.test' });
  });

  it('says "Connexion échouée" when the request fails', async () => {
    fakeApi({ 'POST api/forgot-password': { status: 500, body: { message: 'x' } } });
    const user = openPage();
    await user.type(screen.getByRole('textbox', { name: 'Email' }), 'awa@reformes.test');
    await user.click(screen.getByRole('button', { name: 'Récupérer' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.forgotFailed);
    expect(screen.getByRole('button', { name: 'Récupérer' })).toBeEnabled();
  });
});
