import type { Db } from '../../db/client.ts';
import { enqueueMail } from '../../jobs/queue.ts';

/**
 * The security notices mailed to an account (ASVS 6.3.7): a change of its password, email or second factor is told
 * to its owner, who learns of a change they did not make. A notice holds no password, token or code.
 */
export type AccountNotice =
  | 'password_changed'
  | 'password_first_change'
  | 'password_reset'
  | 'password_admin_reset'
  | 'email_changed'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'two_factor_reset'
  | 'recovery_codes_renewed';

export interface NoticeRecipient {
  email: string;
  firstname: string;
  lastname: string;
}

/**
 * "mardi 3 mars 2026 à 14:05": when the change happened (UTC, said in the text). Built on the first notice, not at
 * start: the ICU date format maps several MB of locale data that a server at rest need not hold.
 */
let noticeDateFormat: Intl.DateTimeFormat | undefined;
const noticeDate = (when: Date) => {
  noticeDateFormat ??= new Intl.DateTimeFormat('fr-FR', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' });
  return noticeDateFormat.format(when);
};

const NOTICES: Record<AccountNotice, { subject: string; what: string; after?: string }> = {
  password_changed: {
    subject: 'Réformes : votre mot de passe a été changé',
    what: 'Le mot de passe de votre compte Réformes a été changé',
  },
  password_first_change: {
    subject: 'Réformes : votre mot de passe a été choisi',
    what: 'Le mot de passe temporaire de votre compte Réformes a été remplacé',
  },
  password_reset: {
    subject: 'Réformes : votre mot de passe a été réinitialisé',
    what: 'Le mot de passe de votre compte Réformes a été réinitialisé par un lien de réinitialisation',
  },
  password_admin_reset: {
    subject: 'Réformes : votre mot de passe a été réinitialisé par un administrateur',
    what: 'Un administrateur a donné un mot de passe temporaire à votre compte Réformes',
    after: 'Il vous le communiquera ; vous choisirez votre propre mot de passe à la prochaine connexion.',
  },
  email_changed: {
    subject: "Réformes : l'adresse email de votre compte a été changée",
    what: "L'adresse email de votre compte Réformes a été changée",
    after: 'Cette adresse ne recevra plus les messages du compte, ni les liens de réinitialisation du mot de passe.',
  },
  two_factor_enabled: {
    subject: 'Réformes : double authentification activée',
    what: 'La double authentification a été activée sur votre compte Réformes',
  },
  two_factor_disabled: {
    subject: 'Réformes : double authentification désactivée',
    what: 'La double authentification a été désactivée sur votre compte Réformes',
  },
  two_factor_reset: {
    subject: 'Réformes : double authentification réinitialisée par un administrateur',
    what: 'Un administrateur a réinitialisé la double authentification de votre compte Réformes',
    after: 'Vos sessions ouvertes ont été fermées ; vous pourrez la réactiver depuis « Mon compte ».',
  },
  recovery_codes_renewed: {
    subject: 'Réformes : nouveaux codes de secours',
    what: 'De nouveaux codes de secours ont été générés pour votre compte Réformes ; les précédents ne valent plus',
  },
};

/** The subject and text of a notice: `noticeMail('password_changed', user, new Date())`. */
export function noticeMail(kind: AccountNotice, to: NoticeRecipient, when: Date) {
  const { subject, what, after } = NOTICES[kind];
  return {
    to: to.email,
    subject,
    text:
      `Bonjour ${to.firstname} ${to.lastname},\n\n` +
      `${what} le ${noticeDate(when)} (UTC).${after ? ` ${after}` : ''}\n\n` +
      "Si vous n'êtes pas à l'origine de ce changement, contactez sans attendre un administrateur de l'application.\n",
  };
}

/**
 * Queues the notice in the change's transaction (jobs/queue.ts): it leaves once the change is committed, and is retried
 * while the SMTP server is down; a change rolled back sends nothing.
 */
export async function queueAccountNotice(
  executor: Pick<Db, 'insert'>,
  kind: AccountNotice,
  to: NoticeRecipient,
  when = new Date(),
): Promise<void> {
  await enqueueMail(executor, noticeMail(kind, to, when));
}
