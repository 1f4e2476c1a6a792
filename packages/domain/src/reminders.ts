import { z } from './zod-locale.ts';

/**
 * Reminders by mail (issue 32): each digest a user may receive, and may turn off in « Mon compte ».
 * - `structure`: to the saisie accounts of a structure, its reforms that are late or without follow-up for a while;
 * - `portfolio`: to the publication and saisie central accounts, the week's portfolio.
 * Each leaves at most once a week (Monday to Sunday, UTC) to a given person.
 */
export const REMINDER_DIGESTS = ['structure', 'portfolio'] as const;
export type ReminderDigest = (typeof REMINDER_DIGESTS)[number];

/** What the scheduled job does each day, at this time of the server (apps/server, jobs/schedule.ts `dailyAt`). */
export const REMINDERS_DAILY_AT = '07:00';

/** Reforms named in one structure digest; the others are counted, with a link to the overview. */
export const REMINDER_LIST_MAX = 50;
/** Late reforms named in the portfolio digest: the ten that became late last. */
export const REMINDER_LATEST_LATE = 10;

const preference = z.boolean({ error: 'Indiquez oui ou non' });

/** `PUT api/user/reminders`: which digests the caller receives (true) or has turned off (false). */
export const reminderPreferencesSchema = z.strictObject({ structure_digest: preference, portfolio_digest: preference });
export type ReminderPreferences = z.infer<typeof reminderPreferencesSchema>;

/** "1 réforme", "3 réformes". */
export const countOf = (count: number, one: string, many: string) => `${count} ${count > 1 ? many : one}`;

export const REMINDER_MESSAGES = {
  title: 'Rappels',
  schedule: (dailyAt: string) =>
    `Chaque jour à ${dailyAt} (heure du serveur). Chaque résumé part au plus une fois par semaine (du lundi au dimanche) à une même personne.`,
  scheduleTitle: 'Programmation',
  structureRule: (days: number) =>
    `Comptes de saisie : les réformes de leur structure en retard, ou sans donnée de suivi depuis ${days} jours ou plus.`,
  portfolioRule:
    'Comptes de publication et de saisie centrale : le portefeuille par statut et les dix dernières réformes passées en retard.',
  lastRunTitle: 'Dernier envoi',
  neverRun: "Les rappels n'ont encore jamais été envoyés.",
  triggerLabel: 'Déclenchement',
  triggers: { schedule: 'programmé', manual: 'à la demande' },
  runStarted: 'Commencé le',
  runFinished: 'Terminé le',
  runNotFinished: 'en cours',
  mails: 'Courriels mis en file',
  delivered: 'Partis',
  waiting: 'En attente',
  failed: 'En échec',
  errors: "Erreurs pendant l'envoi",
  runNow: 'Envoyer les rappels maintenant',
  runTitle: 'Envoyer les rappels',
  runConfirm:
    "Les résumés que leurs destinataires n'ont pas encore reçus cette semaine partent dès maintenant. Ceux déjà reçus cette semaine ne repartent pas.",
  ran: (mails: number) => `Rappels envoyés : ${countOf(mails, 'courriel mis', 'courriels mis')} en file d'envoi.`,
  // "Mon compte"
  accountTab: 'Rappels',
  accountIntro: 'Les rappels partent par courriel, au plus une fois par semaine chacun.',
  structureLabel: 'Recevoir le résumé des réformes à suivre de ma structure',
  structureHelp: 'Pour les comptes de saisie : les réformes de votre structure en retard ou restées sans donnée de suivi.',
  portfolioLabel: 'Recevoir le résumé hebdomadaire du portefeuille',
  portfolioHelp: 'Pour les comptes de publication et de saisie centrale : les réformes par statut et les dernières passées en retard.',
  save: 'Enregistrer mes rappels',
  saved: 'Vos préférences de rappel sont enregistrées.',
  saveTitle: 'Rappels par courriel',
} as const;

/** The French of the two digests' mails (apps/server, modules/reminders/reminder-mails.ts). */
export const REMINDER_MAIL = {
  hello: (name: string) => `Bonjour ${name},`,
  structureSubject: (count: number) => `Réformes : ${countOf(count, 'réforme', 'réformes')} de votre structure à suivre`,
  structureIntro: (structure: string, days: number) =>
    `Voici les réformes de la structure ${structure} qui demandent votre attention : en retard, ou sans donnée de suivi depuis ${days} jours ou plus.`,
  reforme: 'Réforme',
  status: 'Statut',
  lastSuivi: 'Dernier suivi',
  noSuivi: 'aucun',
  openSuivi: 'Voir son suivi',
  more: (count: number) => `Et ${countOf(count, 'autre réforme', 'autres réformes')} : voir le portefeuille de la structure`,
  portfolioSubject: 'Réformes : le portefeuille de la semaine',
  portfolioIntro: 'Voici où en sont les réformes suivies, par statut :',
  total: 'Total',
  latestLate: 'Les dernières réformes passées en retard :',
  noneLate: "Aucune réforme n'est en retard.",
  lateSince: (day: string) => `en retard depuis le ${day}`,
  openLate: 'Voir les réformes en retard',
  footer: 'Vous recevez ce résumé au plus une fois par semaine. Pour ne plus le recevoir : « Mon compte », onglet « Rappels »',
} as const;
