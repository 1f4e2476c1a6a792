import { MESSAGES, TITLES } from '@reformes/domain';
import { byId, setFieldError } from '../dom.ts';
import { showToast } from '../toasts.ts';
import { loadRules, prepareRules, whileBusy } from './login-form.ts';

/** The forgotten-password page (spec §2.4, forgot-password-page.html): the email, then "Email envoyé !" in place of the form. */
export function startForgotPassword(): void {
  const form = byId<HTMLFormElement>('forgot-form');
  const email = byId<HTMLInputElement>('forgot-email');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (!button || button.disabled) return;
    void whileBusy(button, 'Envoi...', async () => {
      try {
        const { checkForgotPassword, requestPasswordReset } = await loadRules();
        const checked = checkForgotPassword({ email: email.value });
        setFieldError(email, checked.errors?.email);
        if (!checked.values) return;
        await requestPasswordReset(checked.values);
        form.hidden = true;
        byId('forgot-sent').hidden = false;
      } catch {
        // Spec §8: the failure reads "Connexion échouée".
        showToast({ color: 'red', title: TITLES.login, message: MESSAGES.forgotFailed });
      }
    });
  });
  prepareRules(form);
}
