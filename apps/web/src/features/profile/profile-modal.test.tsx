import { MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession } from '../../session/session.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { aUser, renderApp, signInAs } from '../../test/render-app.tsx';

const dash = {
  message: 'ok',
  data: { total_reforme: 0, total_reforme_admin: 0, total_reforme_ins: 0, total_pending: 0, users: 0, total_structures: 0 },
};

async function openProfile() {
  await userEvent.click(await screen.findByRole('button', { name: /Menu utilisateur/ }));
  await userEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Mon profil' }));
  return screen.findByRole('dialog', { name: 'Mon profil' });
}

async function replace(field: HTMLElement, value: string) {
  await userEvent.clear(field);
  await userEvent.click(field);
  await userEvent.paste(value);
}

const currentPasswordOf = (dialog: HTMLElement) => within(dialog).queryByLabelText(/Mot de passe actuel/);

describe('"Mon profil": a new email needs the current password (issue 14)', () => {
  it('shows no password field while the email stays, not even for another case', async () => {
    signInAs();
    fakeApi({ 'GET dash/': { body: dash } });
    renderApp('/admin/dashboard');
    const dialog = await openProfile();
    expect(currentPasswordOf(dialog)).not.toBeInTheDocument();
    await replace(within(dialog).getByLabelText(/Email/), 'AWA@reformes.test');
    expect(currentPasswordOf(dialog)).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Enregistrer' })).toBeEnabled();
  });

  it('asks for "Mot de passe actuel" as soon as the email differs, and requires it', async () => {
    signInAs();
    fakeApi({ 'GET dash/': { body: dash } });
    renderApp('/admin/dashboard');
    const dialog = await openProfile();
    await replace(within(dialog).getByLabelText(/Email/), 'awa.diallo@reformes.test');

    const password = await within(dialog).findByLabelText(/Mot de passe actuel/);
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toBeRequired();
    const save = within(dialog).getByRole('button', { name: 'Enregistrer' });
    await waitFor(() => expect(save).toBeDisabled());
    await userEvent.click(password);
    await userEvent.tab();
    expect(await within(dialog).findByText(MESSAGES.currentPasswordRequired)).toBeInTheDocument();

    // Back to the current email: the field goes and the form may be saved again.
    await replace(within(dialog).getByLabelText(/Email/), 'awa@reformes.test');
    await waitFor(() => expect(currentPasswordOf(dialog)).not.toBeInTheDocument());
    await waitFor(() => expect(save).toBeEnabled());
  });

  it('sends the current password with the new email and keeps the updated user', async () => {
    signInAs();
    const fetchMock = fakeApi({
      'GET dash/': { body: dash },
      'POST api/user-update': { body: { message: 'ok', data: aUser({ email: 'awa.diallo@reformes.test' }) } },
    });
    renderApp('/admin/dashboard');
    const dialog = await openProfile();
    await replace(within(dialog).getByLabelText(/Email/), 'awa.diallo@reformes.test');
    await replace(await within(dialog).findByLabelText(/Mot de passe actuel/), 'Mon-Secret-2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    expect(await screen.findByText(MESSAGES.profileUpdated)).toBeInTheDocument();
    expect(getSession().user?.email).toBe('awa.diallo@reformes.test');
    const update = fetchMock.mock.calls.find(([url]) => String(url) === '/api/v1/api/user-update');
    expect(JSON.parse(String(update?.[1]?.body))).toEqual({
      lastname: 'Diallo',
      firstname: 'Awa',
      email: 'awa.diallo@reformes.test',
      phone: '770000000',
      current_password: 'Mon-Secret-2026',
    });
  });

  it("shows the server's refusal of a wrong password under the field, and keeps the modal open", async () => {
    signInAs();
    fakeApi({
      'GET dash/': { body: dash },
      'POST api/user-update': {
        status: 422,
        body: { message: MESSAGES.invalidInput, errorsList: { current_password: [MESSAGES.currentPasswordWrong] } },
      },
    });
    renderApp('/admin/dashboard');
    const dialog = await openProfile();
    await replace(within(dialog).getByLabelText(/Email/), 'awa.diallo@reformes.test');
    const password = await within(dialog).findByLabelText(/Mot de passe actuel/);
    await replace(password, 'Pas-le-bon');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    expect(await within(dialog).findByText(MESSAGES.currentPasswordWrong)).toBeInTheDocument();
    expect(password).toHaveAttribute('data-invalid', 'true');
    expect(screen.getByRole('dialog', { name: 'Mon profil' })).toBeInTheDocument();
    expect(getSession().user?.email).toBe('awa@reformes.test');
  });
});
