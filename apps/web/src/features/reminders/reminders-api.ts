import { REMINDERS_ROUTES } from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call.ts';

export const REMINDERS_KEY = ['reminders'] as const;

/** `GET reminders`: the schedule, the threshold and the last run. */
export const remindersStatusQuery = () =>
  queryOptions({
    queryKey: REMINDERS_KEY,
    queryFn: ({ signal }) => call(REMINDERS_ROUTES.status, { signal }),
    select: (answer) => answer.data,
  });

/** `POST reminders/run`: the digests not yet sent this week leave now. */
export const runReminders = () => call(REMINDERS_ROUTES.run, {});
