import { TWO_FACTOR_MESSAGES, tooManyAttemptsMessage } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, type FakeCall, fakeApi, lastBody } from '../../test/fake-api.ts';
import { aUser, renderApp, signInAs } from '../../test/render-app.tsx';

const CODES = Array.from({ length: 10 }, (_, index) => `abcde-${String(index).padStart(5, 'k')}`);
const SETUP = {
  otpauth_url: 'otpauth://totp/R%C3%A9formes:awa?secret=JBSWY3DPEHPK3PXP',
  qr_code: 'data:image/png;base64,iVBORw0KGgo=',
  secret: 'JBSW Y3DP EHPK 3PXP',
};
const wrongPasswordOrCode = {
  status: 422,
  body: {
    message: TWO_FACTOR_MESSAGES.wrongPasswordOrCode,
    errorsList: { password: [TWO_FACTOR_MESSAGES.wrongPasswordOrCode], code: [TWO_FACTOR_MESSAGES.wrongPasswordOrCode] },
  },
};

async function openTab() {
  await userEvent.click(await screen.findByRole('tab', { name: TWO_FACTOR_MESSAGES.title }));
  return screen.getByRole('tabpanel', { name: TWO_FACTOR_MESSAGES.title });
}

async function confirmWith(panel: HTMLElement, password: string, code: string, button: string) {
  await userEvent.type(within(panel).getByLabelText(new RegExp(TWO_FACTOR_MESSAGES.currentPasswordLabel)), password);
  await userEvent.type(within(panel).getByRole('textbox', { name: new RegExp(TWO_FACTOR_MESSAGES.codeLabel) }), code);
  await userEvent.click(within(panel).getByRole('button', { name: button }));
}

describe('Mon compte > Double authentification', () => {
  it('enables with the current password and a code, and shows "Activée" at once, beside the recovery codes', async () => {
    signInAs();
    let enabled = false;
    const status = () => answer({ enabled, required: false, recovery_codes_left: enabled ? 10 : 0 });
    const fetchMock = fakeApi({
      'GET api/2fa': status,
      'POST api/2fa/setup': answer(SETUP),
      'POST api/2fa/enable': (call: FakeCall) => {
        if ((call.body as { password: string }).password !== 'Secret-2026!') return wrongPasswordOrCode;
        enabled = true;
        return answer({ recovery_codes: CODES }, TWO_FACTOR_MESSAGES.enabled);
      },
      'GET api/user': () => answer(aUser({ two_factor: { enabled, required: false } })),
    });
    renderApp('/admin/user-account');
    const panel = await openTab();
    expect(await within(panel).findByText(TWO_FACTOR_MESSAGES.statusOff)).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: 'Activer la double authentification' }));
    expect(await within(panel).findByText(SETUP.secret)).toBeInTheDocument();
    expect(within(panel).getByLabelText(new RegExp(TWO_FACTOR_MESSAGES.currentPasswordLabel))).toHaveAttribute('type', 'password');

    await confirmWith(panel, 'Mauvais-2026!', '123456', 'Activer');
    expect(await within(panel).findByRole('alert')).toHaveTextContent(TWO_FACTOR_MESSAGES.wrongPasswordOrCode);
    expect(within(panel).getByText(TWO_FACTOR_MESSAGES.statusOff)).toBeInTheDocument();

    await userEvent.clear(within(panel).getByLabelText(new RegExp(TWO_FACTOR_MESSAGES.currentPasswordLabel)));
    await userEvent.clear(within(panel).getByRole('textbox', { name: new RegExp(TWO_FACTOR_MESSAGES.codeLabel) }));
    await confirmWith(panel, 'Secret-2026!', '123456', 'Activer');
    expect(lastBody(fetchMock.calls, 'POST', 'api/2fa/enable')).toEqual({ password: 'Secret-2026!', code: '123456' });
    const codes = await within(panel).findByRole('list', { name: 'Codes de secours' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    expect(await within(panel).findByText(TWO_FACTOR_MESSAGES.statusOn)).toBeInTheDocument();
    expect(within(panel).queryByText(TWO_FACTOR_MESSAGES.statusOff)).not.toBeInTheDocument();

    await userEvent.click(within(panel).getByRole('button', { name: "J'ai conservé mes codes" }));
    expect(await within(panel).findByText('Codes de secours restants : 10')).toBeInTheDocument();
  });

  it('generates new recovery codes for the password and a code, shown once', async () => {
    signInAs(aUser({ two_factor: { enabled: true, required: false } }));
    const fetchMock = fakeApi({
      'GET api/2fa': answer({ enabled: true, required: false, recovery_codes_left: 3 }),
      'POST api/2fa/recovery-codes': answer({ recovery_codes: CODES }, TWO_FACTOR_MESSAGES.recoveryCodesRenewed),
    });
    renderApp('/admin/user-account');
    const panel = await openTab();
    expect(await within(panel).findByText('Codes de secours restants : 3')).toBeInTheDocument();
    await userEvent.click(within(panel).getByRole('button', { name: TWO_FACTOR_MESSAGES.renewRecoveryCodes }));
    await confirmWith(panel, 'Secret-2026!', 'abcde-fghjk', TWO_FACTOR_MESSAGES.renewRecoveryCodes);

    const codes = await within(panel).findByRole('list', { name: 'Codes de secours' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    expect(lastBody(fetchMock.calls, 'POST', 'api/2fa/recovery-codes')).toEqual({ password: 'Secret-2026!', code: 'abcde-fghjk' });
    await userEvent.click(within(panel).getByRole('button', { name: "J'ai conservé mes codes" }));
    await waitFor(() => expect(within(panel).queryByRole('list', { name: 'Codes de secours' })).not.toBeInTheDocument());
  });

  it('shows the wait of a throttled account (429) when turning it off', async () => {
    signInAs(aUser({ two_factor: { enabled: true, required: false } }));
    const wait = tooManyAttemptsMessage(16);
    fakeApi({
      'GET api/2fa': answer({ enabled: true, required: false, recovery_codes_left: 10 }),
      'POST api/2fa/disable': { status: 429, body: { message: wait } },
    });
    renderApp('/admin/user-account');
    const panel = await openTab();
    await within(panel).findByText(TWO_FACTOR_MESSAGES.statusOn);
    await confirmWith(panel, 'Secret-2026!', '123456', TWO_FACTOR_MESSAGES.disable);
    expect(await within(panel).findByRole('alert')).toHaveTextContent(wait);
    expect(within(panel).getByText(TWO_FACTOR_MESSAGES.statusOn)).toBeInTheDocument();
  });
});
