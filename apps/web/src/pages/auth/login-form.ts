import {
  ACCOUNT_PAGE_PATH,
  type CurrentUser,
  DIRECTORY_MESSAGES,
  DIRECTORY_OUTCOME_ELEMENT_ID,
  homeOf,
  keepToasts,
  MESSAGES,
  readStored,
  SESSION_KEYS,
  type SignIn,
  TITLES,
  takeToasts,
  writeSignIn,
} from '@reformes/domain';
import { byId, leavePage, setFieldError, wirePasswordToggles } from '../dom.ts';
import { showToast } from '../toasts.ts';

type Rules = typeof import('./auth-rules.ts');
let rules: Promise<Rules> | undefined;
/** The rules and calls, asked for as soon as the visitor reaches for the form (auth-rules.ts). */
export const loadRules = (): Promise<Rules> => {
  rules ??= import('./auth-rules.ts').catch((error: unknown) => {
    rules = undefined;
    throw error;
  });
  return rules;
};

/**
 * Loads the rules on the first focus or touch in `form`, then lets the form be sent: its button is disabled in the
 * page (auth-markup.ts) until this script handles the submission.
 */
export function prepareRules(form: HTMLFormElement): void {
  const load = () => void loadRules().catch(() => undefined);
  form.addEventListener('focusin', load, { once: true });
  form.addEventListener('pointerdown', load, { once: true });
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (button) button.disabled = false;
}

/** A button that reads `busyText` and is disabled while `work` runs. */
export async function whileBusy<T>(button: HTMLButtonElement, busyText: string, work: () => Promise<T>): Promise<T> {
  const text = button.textContent;
  button.disabled = true;
  button.textContent = busyText;
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.textContent = text;
  }
}

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : MESSAGES.unknownError);

/**
 * The sign-in page (spec §2.4, login-page.html): a visitor with a stored session goes to its home; otherwise the
 * password, then the code of a second factor when the account has one; once signed in, the back office opens on
 * the user's home (first password, second-factor enrolment or dashboard) with "Connexion réussie".
 */
export function startLogin(): void {
  const leave = (url: string) => leavePage.to(url);
  // The directory's callback answers this page with its outcome (issue 42): it decides, even over a stored session.
  const outcome = document.getElementById(DIRECTORY_OUTCOME_ELEMENT_ID)?.textContent ?? undefined;
  // The session the back office keeps in localStorage (the domain's browser-handover.ts names its keys).
  if (outcome === undefined && readStored<string | null>(localStorage, SESSION_KEYS.accessToken, null)) {
    leave(homeOf(readStored<CurrentUser | null>(localStorage, SESSION_KEYS.user, null)));
    return;
  }
  for (const toast of takeToasts(sessionStorage)) showToast(toast);
  // Back from the directory's logout, which echoes the `state` it was given: the address loses it.
  if (outcome === undefined && /^\?state=[\w-]*$/.test(window.location.search)) history.replaceState(null, '', '/auth/login');

  const loginForm = byId<HTMLFormElement>('login-form');
  const codeForm = byId<HTMLFormElement>('code-form');
  const email = byId<HTMLInputElement>('login-email');
  const password = byId<HTMLInputElement>('login-password');
  const code = byId<HTMLInputElement>('login-code');
  let challenge: string | undefined;
  wirePasswordToggles(loginForm);

  let leaving = false;
  const enter = (data: SignIn) => {
    leaving = true;
    writeSignIn(localStorage, data);
    keepToasts(sessionStorage, [{ color: 'green', title: TITLES.login, message: MESSAGES.loginSuccess }]);
    leave(homeOf(data.user));
  };
  const showStep = (step: 'password' | 'code') => {
    loginForm.hidden = step === 'code';
    codeForm.hidden = step === 'password';
    (step === 'code' ? code : email).focus();
  };
  const fail = (error: unknown) => showToast({ color: 'red', title: TITLES.login, message: messageOf(error) });

  loginForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = loginForm.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (!button || button.disabled || leaving) return;
    void whileBusy(button, 'Connexion...', async () => {
      try {
        const { checkLogin, signIn } = await loadRules();
        const checked = checkLogin({ email: email.value, password: password.value });
        setFieldError(email, checked.errors?.email);
        setFieldError(password, checked.errors?.password);
        if (!checked.values) return;
        const { data } = await signIn(checked.values);
        if ('challenge_token' in data) {
          challenge = data.challenge_token;
          code.value = '';
          setFieldError(code);
          showStep('code');
        } else enter(data);
      } catch (error) {
        fail(error);
      }
    });
  });

  code.addEventListener('input', () => setFieldError(code));
  codeForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const button = codeForm.querySelector<HTMLButtonElement>('button[type="submit"]');
    if (!button || button.disabled || !challenge || leaving) return;
    const token = challenge;
    void whileBusy(button, 'Vérification...', async () => {
      try {
        const { checkCode, signInWithCode } = await loadRules();
        const checked = checkCode(code.value);
        setFieldError(code, checked.errors?.code);
        if (checked.values === undefined) return;
        const { data } = await signInWithCode(token, checked.values);
        enter(data);
      } catch (error) {
        setFieldError(code, messageOf(error));
        fail(error);
        // An expired challenge needs the password again.
        if (
          await loadRules().then(
            (loaded) => loaded.isChallengeExpired(error),
            () => false,
          )
        ) {
          challenge = undefined;
          showStep('password');
        }
      }
    });
  });
  byId('code-back').addEventListener('click', () => {
    challenge = undefined;
    showStep('password');
  });
  prepareRules(loginForm);
  prepareRules(codeForm);

  const directory = loadDirectory();
  void directory.then((loaded) => loaded.offerDirectory()).catch(() => undefined);
  if (outcome === undefined) return;
  // A reload must not replay the callback: the address becomes the sign-in page's.
  history.replaceState(null, '', '/auth/login');
  void Promise.all([directory, import('./directory-outcome.ts')]).then(([{ showRefusal }, { parseOutcome }]) => {
    const decided = parseOutcome(outcome);
    if (decided.kind === 'signed_in') enter(decided.session);
    else if (decided.kind === 'two_factor') {
      challenge = decided.challenge_token;
      showStep('code');
    } else if (decided.kind === 'linked') {
      keepToasts(sessionStorage, [{ color: 'green', message: DIRECTORY_MESSAGES.linked }]);
      leave(ACCOUNT_PAGE_PATH);
    } else if (decided.back_to === 'account') {
      keepToasts(sessionStorage, [{ color: 'red', message: decided.message }]);
      leave(ACCOUNT_PAGE_PATH);
    } else showRefusal(decided.message);
  }, fail);
}

/** The directory's part of the page (directory-sign-in.ts), after the first script. */
const loadDirectory = () => import('./directory-sign-in.ts');
