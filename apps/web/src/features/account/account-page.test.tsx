import { ACCOUNT_MESSAGES, MESSAGES, TITLES, tooManyAttemptsMessage, versionText } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { leavePage } from '../../session/leave-page.ts';
import { getSession } from '../../session/session.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { aUser, renderApp, signInAs } from '../../test/render-app.tsx';

// The first screen of a file loads the lazy layout and page: slower than the default second on a busy machine.
const PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgo=';
const dash = {
  message: 'ok',
  data: { total_reforme: 0, total_reforme_admin: 0, total_reforme_ins: 0, total_pending: 0, users: 0, total_structures: 0 },
};

async function openTab(name: string) {
  await userEvent.click(await screen.findByRole('tab', { name }));
  return screen.getByRole('tabpanel', { name });
}

/** The call made to `path` (after /api/v1/), with its request. */
function callTo(fetchMock: ReturnType<typeof fakeApi>, path: string) {
  return fetchMock.mock.calls.find(([url]) => String(url) === `/api/v1/${path}`);
}

describe('Mon compte', () => {
  it('is reached from the user menu, keeping "Mon profil"', async () => {
    signInAs();
    fakeApi({ 'GET dash/': { body: dash } });
    const { router } = renderApp('/admin/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: /Menu utilisateur/ }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Mon profil' })).toBeInTheDocument();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Mon compte' }));

    expect(await screen.findByRole('heading', { name: 'Mon compte', level: 1 })).toBeInTheDocument();
    expect(screen.getByText(ACCOUNT_MESSAGES.subtitle)).toBeInTheDocument();
    // The release, at the foot of the page (issue 43).
    expect(screen.getByText(versionText())).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/user-account');
  });

  it('shows no "Signature" tab to a user who does not sign', async () => {
    signInAs(aUser({ is_signer: false }));
    fakeApi({});
    renderApp('/admin/user-account');
    expect(await screen.findByRole('tab', { name: 'Information personnelle' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Mot de passe' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Signature' })).not.toBeInTheDocument();
  });

  it('shows the "Signature" tab to a signer, and the tab follows the refreshed user', async () => {
    signInAs(aUser({ is_signer: false }));
    fakeApi({ 'GET api/user': { body: { message: 'ok', data: aUser({ is_signer: true }) } } });
    renderApp('/admin/user-account');
    expect(await screen.findByRole('tab', { name: 'Signature' })).toBeInTheDocument();
    expect(getSession().user?.is_signer).toBe(true);
  });

  it('renders the empty user-settings placeholder at /admin/user-settinngs', async () => {
    signInAs();
    fakeApi({});
    renderApp('/admin/user-settinngs');
    expect(await screen.findByRole('heading', { name: 'Paramètres utilisateur', level: 1 })).toBeInTheDocument();
  });
});

describe('Information personnelle', () => {
  it('requires a valid email before "Sauvegarder mes informations"', async () => {
    signInAs();
    fakeApi({});
    renderApp('/admin/user-account');
    const email = await screen.findByRole('textbox', { name: /Email/ });
    expect(email).toHaveValue('awa@reformes.test');
    const save = screen.getByRole('button', { name: 'Sauvegarder mes informations' });

    await userEvent.clear(email);
    expect(await screen.findByText(MESSAGES.emailRequired)).toBeInTheDocument();
    expect(save).toBeDisabled();
    await userEvent.type(email, 'awa@');
    expect(await screen.findByText(MESSAGES.emailInvalid)).toBeInTheDocument();
    expect(save).toBeDisabled();
  });

  it('saves the email with the current password, keeps the updated user and says so', async () => {
    signInAs();
    const fetchMock = fakeApi({
      'POST api/user-update': { body: { message: 'ok', data: aUser({ email: 'awa.diallo@reformes.test' }) } },
    });
    renderApp('/admin/user-account');
    const email = await screen.findByRole('textbox', { name: /Email/ });
    await userEvent.clear(email);
    await userEvent.type(email, 'awa.diallo@reformes.test');
    await userEvent.type(await screen.findByLabelText(/Mot de passe actuel/), 'Mon-Secret-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Sauvegarder mes informations' }));

    expect(await screen.findByText(ACCOUNT_MESSAGES.infoSaved)).toBeInTheDocument();
    expect(screen.getByText(TITLES.account, { selector: '.mantine-Notification-title' })).toBeInTheDocument();
    expect(getSession().user?.email).toBe('awa.diallo@reformes.test');
    expect(JSON.parse(String(callTo(fetchMock, 'api/user-update')?.[1]?.body))).toEqual({
      email: 'awa.diallo@reformes.test',
      current_password: 'Mon-Secret-2026',
    });
    // The saved address is the current one now: the password field goes, and is empty if it comes back.
    await waitFor(() => expect(screen.queryByLabelText(/Mot de passe actuel/)).not.toBeInTheDocument());
    expect(screen.getByRole('textbox', { name: /Email/ })).toHaveValue('awa.diallo@reformes.test');
  });

  it('asks for "Mot de passe actuel" only once the email differs, and requires it', async () => {
    signInAs();
    const fetchMock = fakeApi({});
    renderApp('/admin/user-account');
    const email = await screen.findByRole('textbox', { name: /Email/ });
    const save = screen.getByRole('button', { name: 'Sauvegarder mes informations' });
    expect(screen.queryByLabelText(/Mot de passe actuel/)).not.toBeInTheDocument();

    await userEvent.clear(email);
    await userEvent.type(email, 'autre@reformes.test');
    const password = await screen.findByLabelText(/Mot de passe actuel/);
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toBeRequired();
    await waitFor(() => expect(save).toBeDisabled());
    await userEvent.click(password);
    await userEvent.tab();
    expect(await screen.findByText(MESSAGES.currentPasswordRequired)).toBeInTheDocument();
    expect(callTo(fetchMock, 'api/user-update')).toBeUndefined();

    await userEvent.clear(email);
    await userEvent.type(email, 'AWA@reformes.test');
    await waitFor(() => expect(screen.queryByLabelText(/Mot de passe actuel/)).not.toBeInTheDocument());
    await waitFor(() => expect(save).toBeEnabled());
  });

  it("shows the server's refusal of a wrong current password under the field and in the toast", async () => {
    signInAs();
    fakeApi({
      'POST api/user-update': {
        status: 422,
        body: { message: MESSAGES.invalidInput, errorsList: { current_password: [MESSAGES.currentPasswordWrong] } },
      },
    });
    renderApp('/admin/user-account');
    const email = await screen.findByRole('textbox', { name: /Email/ });
    await userEvent.clear(email);
    await userEvent.type(email, 'autre@reformes.test');
    const password = await screen.findByLabelText(/Mot de passe actuel/);
    await userEvent.type(password, 'Pas-le-bon');
    await userEvent.click(screen.getByRole('button', { name: 'Sauvegarder mes informations' }));

    expect(await screen.findByText(ACCOUNT_MESSAGES.infoFailed)).toBeInTheDocument();
    const panel = screen.getByRole('tabpanel', { name: 'Information personnelle' });
    expect(await within(panel).findByText(MESSAGES.currentPasswordWrong)).toBeInTheDocument();
    expect(password).toHaveAttribute('data-invalid', 'true');
    expect(getSession().user?.email).toBe('awa@reformes.test');
  });

  it('reports a refused email with the server message', async () => {
    signInAs();
    fakeApi({
      'POST api/user-update': {
        status: 409,
        body: { message: MESSAGES.emailTaken },
      },
    });
    renderApp('/admin/user-account');
    const email = await screen.findByRole('textbox', { name: /Email/ });
    await userEvent.clear(email);
    await userEvent.type(email, 'pris@reformes.test');
    await userEvent.type(await screen.findByLabelText(/Mot de passe actuel/), 'Mon-Secret-2026');
    await userEvent.click(screen.getByRole('button', { name: 'Sauvegarder mes informations' }));

    expect(await screen.findByText(ACCOUNT_MESSAGES.infoFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.emailTaken)).toBeInTheDocument();
  });
});

describe('Mot de passe', () => {
  /** Pastes the value into the field: typing key by key is slow with validation on every change. */
  async function enter(field: HTMLElement, value: string) {
    await userEvent.clear(field);
    await userEvent.click(field);
    await userEvent.paste(value);
  }

  async function fillPasswords(panel: HTMLElement, old: string, next: string, confirmation: string) {
    if (old) await enter(within(panel).getByLabelText(/Ancien mot de passe/), old);
    if (next) await enter(within(panel).getByLabelText(/Nouveau mot de passe/), next);
    if (confirmation) await enter(within(panel).getByLabelText(/Confirmer le mot de passe/), confirmation);
  }

  it('keeps "Changer le mot de passe" disabled until the three fields are valid', async () => {
    signInAs();
    fakeApi({});
    renderApp('/admin/user-account');
    const panel = await openTab('Mot de passe');
    const submit = within(panel).getByRole('button', { name: 'Changer le mot de passe' });
    expect(submit).toBeDisabled();

    await fillPasswords(panel, 'Ancien2026!', 'court', '');
    expect(await within(panel).findByText(MESSAGES.passwordMin)).toBeInTheDocument();
    expect(submit).toBeDisabled();
  });

  it('refuses a confirmation that differs, and rechecks it when the new password changes', async () => {
    signInAs();
    fakeApi({});
    renderApp('/admin/user-account');
    const panel = await openTab('Mot de passe');
    const submit = within(panel).getByRole('button', { name: 'Changer le mot de passe' });

    await fillPasswords(panel, 'Ancien2026!', 'Nouveau2026!', 'Nouveau2026?');
    expect(await within(panel).findByText(MESSAGES.passwordsDiffer)).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await enter(within(panel).getByLabelText(/Nouveau mot de passe/), 'Nouveau2026?');
    await waitFor(() => expect(within(panel).queryByText(MESSAGES.passwordsDiffer)).not.toBeInTheDocument());
    expect(submit).toBeEnabled();
  });

  it('ends the session after the change: /admin/login and "Déconnexion réussie"', async () => {
    signInAs();
    const fetchMock = fakeApi({ 'POST api/change-password': { body: { message: ACCOUNT_MESSAGES.passwordChanged } } });
    const { router } = renderApp('/admin/user-account');
    const panel = await openTab('Mot de passe');
    await fillPasswords(panel, 'Ancien2026!', 'Nouveau2026!', 'Nouveau2026!');
    await userEvent.click(within(panel).getByRole('button', { name: 'Changer le mot de passe' }));

    expect(await screen.findByText(MESSAGES.logoutSuccess)).toBeInTheDocument();
    expect(screen.getByText(ACCOUNT_MESSAGES.passwordChanged)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/login');
    // The sign-in page is the server's own (issue 34): the app leaves for it, its toasts handed over.
    await waitFor(() => expect(leavePage.to).toHaveBeenCalledWith('/admin/login'));
    expect(getSession().accessToken).toBeNull();
    expect(getSession().refreshToken).toBeNull();
    expect(JSON.parse(String(callTo(fetchMock, 'api/change-password')?.[1]?.body))).toEqual({
      old_password: 'Ancien2026!',
      new_password: 'Nouveau2026!',
      confirm_password: 'Nouveau2026!',
    });
  });

  it('reports a wrong old password under the field and in a toast, keeping the session', async () => {
    signInAs();
    fakeApi({
      'POST api/change-password': {
        status: 422,
        body: { message: ACCOUNT_MESSAGES.wrongOldPassword, errorsList: { old_password: [ACCOUNT_MESSAGES.wrongOldPassword] } },
      },
    });
    const { router } = renderApp('/admin/user-account');
    const panel = await openTab('Mot de passe');
    await fillPasswords(panel, 'Mauvais2026!', 'Nouveau2026!', 'Nouveau2026!');
    await userEvent.click(within(panel).getByRole('button', { name: 'Changer le mot de passe' }));

    expect(await screen.findByText(ACCOUNT_MESSAGES.passwordFailed)).toBeInTheDocument();
    expect(within(panel).getByText(ACCOUNT_MESSAGES.wrongOldPassword)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/user-account');
    expect(getSession().accessToken).not.toBeNull();
  });

  it('shows the wait of a throttled account (429) in the toast, keeping the session', async () => {
    signInAs();
    const wait = tooManyAttemptsMessage(8);
    fakeApi({ 'POST api/change-password': { status: 429, body: { message: wait } } });
    renderApp('/admin/user-account');
    const panel = await openTab('Mot de passe');
    await fillPasswords(panel, 'Ancien2026!', 'Nouveau2026!', 'Nouveau2026!');
    await userEvent.click(within(panel).getByRole('button', { name: 'Changer le mot de passe' }));

    expect(await screen.findByText(ACCOUNT_MESSAGES.passwordFailed)).toBeInTheDocument();
    expect(screen.getByText(wait)).toBeInTheDocument();
    expect(getSession().accessToken).not.toBeNull();
  });

  it('refuses the app name before sending, and shows the server\'s "trop courant" under the new password', async () => {
    signInAs();
    const fetchMock = fakeApi({
      'POST api/change-password': {
        status: 422,
        body: { message: MESSAGES.invalidInput, errorsList: { new_password: [MESSAGES.passwordTooCommon] } },
      },
    });
    renderApp('/admin/user-account');
    const panel = await openTab('Mot de passe');
    const submit = within(panel).getByRole('button', { name: 'Changer le mot de passe' });

    await fillPasswords(panel, 'Ancien2026!', 'Réformes2027', 'Réformes2027');
    expect((await within(panel).findAllByText(MESSAGES.passwordHasAppName)).length).toBeGreaterThan(0);
    expect(submit).toBeDisabled();

    await fillPasswords(panel, '', 'password', 'password');
    await waitFor(() => expect(submit).toBeEnabled());
    await userEvent.click(submit);
    expect(await screen.findByText(ACCOUNT_MESSAGES.passwordFailed)).toBeInTheDocument();
    expect(within(panel).getByText(MESSAGES.passwordTooCommon)).toBeInTheDocument();
    expect(within(panel).getByLabelText(/Nouveau mot de passe/)).toHaveAttribute('data-invalid', 'true');
    expect(JSON.parse(String(callTo(fetchMock, 'api/change-password')?.[1]?.body))).toMatchObject({ new_password: 'password' });
  });
});

describe('Signature', () => {
  const signer = (userSetting: { id: number; signature: string | null } | null) => aUser({ is_signer: true, user_setting: userSetting });

  function fileInput(panel: HTMLElement): HTMLInputElement {
    const input = panel.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    return input;
  }

  it('shows the placeholder when no signature is stored, and fetches nothing', async () => {
    signInAs(signer(null));
    const fetchMock = fakeApi({});
    renderApp('/admin/user-account');
    const panel = await openTab('Signature');
    expect(within(panel).getByText(ACCOUNT_MESSAGES.noSignature)).toBeInTheDocument();
    expect(fileInput(panel)).toHaveAttribute('accept', 'image/png,image/jpeg');
    expect(within(panel).getByRole('button', { name: 'Charger ma signature' })).toBeDisabled();
    expect(callTo(fetchMock, 'get-file')).toBeUndefined();
  });

  it('fetches the stored signature from folder "director" of disk "local" and previews it', async () => {
    signInAs(signer({ id: 3, signature: 'abc.png' }));
    const fetchMock = fakeApi({ 'POST get-file': { body: { message: 'ok', data: [PNG_DATA_URL] } } });
    renderApp('/admin/user-account');
    const panel = await openTab('Signature');
    expect(await within(panel).findByRole('img', { name: 'Ma signature' })).toHaveAttribute('src', PNG_DATA_URL);
    expect(JSON.parse(String(callTo(fetchMock, 'get-file')?.[1]?.body))).toEqual({
      folder: 'director',
      disk: 'local',
      filename: 'abc.png',
    });
  });

  it('says "Profil utilisateur connecté" when the stored signature cannot be read', async () => {
    signInAs(signer({ id: 3, signature: 'abc.png' }));
    fakeApi({ 'POST get-file': { status: 404, body: { message: ACCOUNT_MESSAGES.fileNotAllowed } } });
    renderApp('/admin/user-account');
    const panel = await openTab('Signature');
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent(ACCOUNT_MESSAGES.fileLoadTitle);
    expect(alert).toHaveTextContent(ACCOUNT_MESSAGES.fileNotAllowed);
  });

  it('creates the settings with the first signature, then previews the stored image', async () => {
    signInAs(signer(null));
    const fetchMock = fakeApi({
      'POST user-settings': {
        status: 201,
        body: { message: ACCOUNT_MESSAGES.signatureSaved, data: { id: 9, signature: 'new.png' } },
      },
      'POST get-file': { body: { message: 'ok', data: [PNG_DATA_URL] } },
    });
    renderApp('/admin/user-account');
    const panel = await openTab('Signature');
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'signature.png', { type: 'image/png' });
    await userEvent.upload(fileInput(panel), file);
    await userEvent.click(within(panel).getByRole('button', { name: 'Charger ma signature' }));

    expect(await screen.findByText(ACCOUNT_MESSAGES.signatureSaved)).toBeInTheDocument();
    expect(await within(panel).findByRole('img', { name: 'Ma signature' })).toHaveAttribute('src', PNG_DATA_URL);
    expect(getSession().user?.user_setting).toEqual({ id: 9, signature: 'new.png' });
    const body = callTo(fetchMock, 'user-settings')?.[1]?.body as FormData;
    expect(body.get('signature')).toBeInstanceOf(File);
    expect(body.get('_method')).toBeNull();
  });

  it('updates the existing settings with _method=patch', async () => {
    signInAs(signer({ id: 3, signature: 'abc.png' }));
    const fetchMock = fakeApi({
      'POST get-file': { body: { message: 'ok', data: [PNG_DATA_URL] } },
      'POST user-settings/3': { body: { message: ACCOUNT_MESSAGES.signatureSaved, data: { id: 3, signature: 'def.jpg' } } },
    });
    renderApp('/admin/user-account');
    const panel = await openTab('Signature');
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], 'signature.jpg', { type: 'image/jpeg' });
    await userEvent.upload(fileInput(panel), file);
    await userEvent.click(within(panel).getByRole('button', { name: 'Charger ma signature' }));

    expect(await screen.findByText(ACCOUNT_MESSAGES.signatureSaved)).toBeInTheDocument();
    const body = callTo(fetchMock, 'user-settings/3')?.[1]?.body as FormData;
    expect(body.get('_method')).toBe('patch');
    expect((body.get('signature') as File).name).toBe('signature.jpg');
  });

  it('refuses a file that is not a PNG or JPEG image before sending it', async () => {
    signInAs(signer(null));
    const fetchMock = fakeApi({});
    renderApp('/admin/user-account');
    const panel = await openTab('Signature');
    const pdf = new File(['%PDF-1.7'], 'signature.pdf', { type: 'application/pdf' });
    await userEvent.upload(fileInput(panel), pdf, { applyAccept: false });

    expect(await within(panel).findByText(ACCOUNT_MESSAGES.signatureImagesOnly)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Charger ma signature' })).toBeDisabled();
    expect(callTo(fetchMock, 'user-settings')).toBeUndefined();
  });

  it('shows the server reason when the upload is refused', async () => {
    signInAs(signer(null));
    fakeApi({ 'POST user-settings': { status: 413, body: { message: MESSAGES.fileTooLarge } } });
    renderApp('/admin/user-account');
    const panel = await openTab('Signature');
    await userEvent.upload(fileInput(panel), new File(['x'], 'grande.png', { type: 'image/png' }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Charger ma signature' }));
    expect(await screen.findByText(MESSAGES.fileTooLarge)).toBeInTheDocument();
  });
});
