/**
 * The sign-in page's part of the directory sign-in (issue 42), loaded after the page's first script: what the server
 * offers (the directory's button, the password form folded for admins), and the outcome the callback's page carries.
 */
import {
  type AnswerOf,
  actionOf,
  DIRECTORY_MESSAGES,
  DIRECTORY_ROUTES,
  type DirectoryOutcome,
  directoryOutcomeSchema,
} from '@reformes/domain';
import { pageRequest } from '../api.ts';
import { byId } from '../dom.ts';

/** The callback's outcome, or a refusal when the page holds something else than what the server writes. */
export function parseOutcome(text: string): DirectoryOutcome {
  try {
    const value: unknown = JSON.parse(text);
    // Checked by the schema, kept in its wire form (dates as the server wrote them).
    if (directoryOutcomeSchema.safeParse(value).success) return value as DirectoryOutcome;
  } catch {
    // Not JSON: the same refusal as an unreadable outcome.
  }
  return { kind: 'refused', message: DIRECTORY_MESSAGES.danceFailed, back_to: 'sign_in' };
}

/** Shows the directory's button when the server has one, and folds the password form when it is for admins only. */
export async function offerDirectory(): Promise<void> {
  const route = DIRECTORY_ROUTES.options;
  const { data } = await pageRequest<AnswerOf<typeof route>>('GET', route.path, { action: actionOf(route) });
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
