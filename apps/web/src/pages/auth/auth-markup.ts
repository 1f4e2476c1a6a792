import { DEFAULT_DIRECTORY_LABEL, MESSAGES, TEXT_LIMITS, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { fieldHtml } from '../dom.ts';
import { type Html, html } from '../html.ts';

/**
 * A form's submit button, disabled until the page's script has taken the form over: before that the browser would
 * send it itself, as a GET with the password in the address (and Enter does nothing while the button is disabled).
 */
const submitHtml = (label: string) => html`<button type="submit" class="btn btn-filled btn-block" disabled>${label}</button>`;

/** The centred card every sign-in and password screen sits in (as auth-card.tsx draws it in the back office). */
export function authCardHtml(title: string, body: Html): Html {
  return html`<main class="auth-page"><div class="auth-card"><h1>${title}</h1>${body}</div></main>`;
}

const emailField = (id: string, autocomplete: string) =>
  fieldHtml({ id, name: 'email', label: 'Email', type: 'email', autocomplete, maxLength: TEXT_LIMITS.email, required: true });

/**
 * /auth/login, /login and /admin/login (spec §2.4): the password step, and the code step of a second factor, hidden
 * until the server asks for it; above them, hidden until the server offers it, the directory's button (issue 42) and the
 * alert of its refusals. Run by login-form.ts.
 */
export function loginPageHtml(): Html {
  const password = fieldHtml({
    id: 'login-password',
    name: 'password',
    label: 'Mot de passe',
    type: 'password',
    autocomplete: 'current-password',
    maxLength: TEXT_LIMITS.password,
    required: true,
    shows: 'le mot de passe',
  });
  const code = fieldHtml({
    id: 'login-code',
    name: 'code',
    label: TWO_FACTOR_MESSAGES.codeLabel,
    description: TWO_FACTOR_MESSAGES.codeHelp,
    inputMode: 'numeric',
    autocomplete: 'one-time-code',
    maxLength: TEXT_LIMITS.label,
    required: true,
  });
  return authCardHtml(
    'CONNEXION',
    html`<div id="directory-alert" class="alert alert-red" role="alert" hidden></div><div id="directory-offer" class="directory-offer" hidden><a id="directory-button" class="btn btn-filled btn-block" href="/api/v1/auth/oidc/authorize">${DEFAULT_DIRECTORY_LABEL}</a><p class="small center">ou</p></div><form id="login-form" method="post" novalidate>${emailField('login-email', 'username')}${password}${submitHtml('Se connecter')}<a href="/auth/forget-password" class="small center">Mot de passe oublié ?</a></form><form id="code-form" method="post" novalidate hidden><p>${TWO_FACTOR_MESSAGES.signInStep}</p>${code}${submitHtml('Vérifier')}<button type="button" class="btn-link center" id="code-back">Retour à la connexion</button></form>`,
  );
}

/** /auth/forget-password (spec §2.4): the email, then "Email envoyé !" in place of the form. Run by forgot-password-form.ts. */
export function forgotPasswordPageHtml(): Html {
  return authCardHtml(
    'Mot de passe oublié ?',
    html`<form id="forgot-form" method="post" novalidate>${emailField('forgot-email', 'email')}${submitHtml('Récupérer')}</form><div id="forgot-sent" class="alert alert-green" role="status" hidden><span class="alert-title">${MESSAGES.forgotSent}</span>${MESSAGES.forgotSentDetail}</div><a href="/auth/login" class="small center">Retour à la connexion</a>`,
  );
}
