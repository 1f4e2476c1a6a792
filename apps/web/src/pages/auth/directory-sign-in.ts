/**
 * The sign-in page's part of the directory sign-in (issue 42), loaded after the page's first script: what the server
 * offers (the directory's button, the password form folded for admins), and the alert of its refusals.
 */
import type { AnswerOf, DIRECTORY_ROUTES } from '@reformes/domain';
import { DIRECTORY_MESSAGES, SIGN_IN_OPTIONS_ACTION, SIGN_IN_OPTIONS_ROUTE } from '@reformes/domain';
import { pageRequest } from '../api.ts';
import { byId } from '../dom.ts';

/**
 * Shows the directory's button when the server has one, and folds the password form when it is for admins only. Runs
 * on every visit: it takes its route from the domain's zod-free module, not from the route table (whose shapes are
 * zod); the callback's outcome is read by directory-outcome.ts, loaded on the callback's page only.
 */
export async function offerDirectory(): Promise<void> {
  const route = SIGN_IN_OPTIONS_ROUTE;
  const { data } = await pageRequest<AnswerOf<typeof DIRECTORY_ROUTES.options>>(route.method, route.path, {
    action: SIGN_IN_OPTIONS_ACTION,
  });
  if (data.directory) {
    byId<HTMLAnchorElement>('directory-button').textContent = data.directory.label;
    byId('directory-offer').hidden = false;
  }
  if (!data.password_signin) foldPasswordForm(byId<HTMLFormElement>('login-form'));
}

/** PASSWORD_SIGNIN=false: the password form stays, folded under « Connexion par mot de passe (administrateurs) ». */
function foldPasswordForm(form: HTMLFormElement): void {
  const details = document.createElement('details');
  details.className = 'password-details';
  const summary = document.createElement('summary');
  summary.textContent = DIRECTORY_MESSAGES.passwordFormAdminsOnly;
  form.replaceWith(details);
  details.append(summary, form);
}

/** A refusal told on the sign-in page: in its alert, which screen readers announce. */
export function showRefusal(message: string): void {
  const alert = byId('directory-alert');
  alert.textContent = message;
  alert.hidden = false;
}
