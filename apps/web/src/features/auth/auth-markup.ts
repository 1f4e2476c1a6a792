import { MESSAGES, TEXT_LIMITS, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { escapeHtml, fieldHtml } from '../../components/dom/html.ts';

/**
 * A form's submit button, disabled until the page's script has taken the form over: before that the browser would
 * send it itself, as a GET with the password in the address (and Enter does nothing while the button is disabled).
 */
const submitHtml = (label: string) => `<button type="submit" class="btn btn-filled btn-block" disabled>${escapeHtml(label)}</button>`;

/** The centred card every sign-in and password screen sits in (as auth-card.tsx draws it in the back office). */
export function authCardHtml(title: string, body: string): string {
  return `<main class="auth-page"><div class="auth-card"><h1>${escapeHtml(title)}</h1>${body}</div></main>`;
}

const emailField = (id: string, autocomplete: string) =>
  fieldHtml({ id, name: 'email', label: 'Email', type: 'email', autocomplete, maxLength: TEXT_LIMITS.email, required: true });

/**
 * /auth/login, /login and /admin/login (spec §2.4): the password step, and the code step of a second factor, hidden
 * until the server asks for it. Run by login-form.ts.
 */
export function loginPageHtml(): string {
  return authCardHtml(
    'CONNEXION',
    [
      '<form id="login-form" method="post" novalidate>',
      emailField('login-email', 'username'),
      fieldHtml({
        id: 'login-password',
        name: 'password',
        label: 'Mot de passe',
        type: 'password',
        autocomplete: 'current-password',
        maxLength: TEXT_LIMITS.password,
        required: true,
        shows: 'le mot de passe',
      }),
      submitHtml('Se connecter'),
      '<a href="/auth/forget-password" class="small center">Mot de passe oublié ?</a>',
      '</form>',
      '<form id="code-form" method="post" novalidate hidden>',
      `<p>${escapeHtml(TWO_FACTOR_MESSAGES.signInStep)}</p>`,
      fieldHtml({
        id: 'login-code',
        name: 'code',
        label: TWO_FACTOR_MESSAGES.codeLabel,
        description: TWO_FACTOR_MESSAGES.codeHelp,
        inputMode: 'numeric',
        autocomplete: 'one-time-code',
        maxLength: TEXT_LIMITS.label,
        required: true,
      }),
      submitHtml('Vérifier'),
      '<button type="button" class="btn-link center" id="code-back">Retour à la connexion</button>',
      '</form>',
    ].join(''),
  );
}

/** /auth/forget-password (spec §2.4): the email, then "Email envoyé !" in place of the form. Run by forgot-password-form.ts. */
export function forgotPasswordPageHtml(): string {
  return authCardHtml(
    'Mot de passe oublié ?',
    [
      '<form id="forgot-form" method="post" novalidate>',
      emailField('forgot-email', 'email'),
      submitHtml('Récupérer'),
      '</form>',
      `<div id="forgot-sent" class="alert alert-green" role="status" hidden><span class="alert-title">${escapeHtml(MESSAGES.forgotSent)}</span>${escapeHtml(MESSAGES.forgotSentDetail)}</div>`,
      '<a href="/auth/login" class="small center">Retour à la connexion</a>',
    ].join(''),
  );
}
