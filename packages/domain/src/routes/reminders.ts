import type { Action } from '../permissions.ts';
import { REMINDER_MESSAGES, reminderPreferencesSchema } from '../reminders.ts';
import { reminderPreferencesAnswer, reminderRunAnswer, remindersStatusAnswer } from '../shapes/reminders.ts';
import { routesOf } from './route.ts';

/** The reminders are the job queue's work: the right `jobs` sees them (list) and sends them now (edit). */
const can = <A extends Action>(action: A) => ({ feature: 'jobs', action }) as const;

/** Reminders by mail (issue 32): the admin screen « Rappels », and each user's choice in « Mon compte ». */
export const REMINDERS_ROUTES = {
  ...routesOf([REMINDER_MESSAGES.title], {
    status: {
      method: 'GET',
      path: '/reminders',
      access: can('list'),
      summary: 'Rappels : programmation et dernier envoi',
      answer: remindersStatusAnswer,
    },
    run: {
      method: 'POST',
      path: '/reminders/run',
      access: can('edit'),
      summary: 'Envoie maintenant les résumés pas encore reçus cette semaine',
      answer: reminderRunAnswer,
    },
  }),
  ...routesOf(['Mon compte'], {
    preferences: {
      method: 'GET',
      path: '/api/user/reminders',
      access: 'signed-in',
      summary: 'Ses rappels par courriel',
      answer: reminderPreferencesAnswer,
    },
    savePreferences: {
      method: 'PUT',
      path: '/api/user/reminders',
      access: 'signed-in',
      summary: 'Choisir ses rappels par courriel',
      body: reminderPreferencesSchema,
      answer: reminderPreferencesAnswer,
    },
  }),
};
