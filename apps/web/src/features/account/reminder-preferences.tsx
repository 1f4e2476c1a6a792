import { Button, Group, Loader, Stack, Switch, Text } from '@mantine/core';
import { REMINDER_MESSAGES as M, MESSAGES, type ReminderPreferences as Preferences } from '@reformes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { reminderPreferencesQuery, saveReminderPreferences } from './account-api.ts';

const SWITCHES = [
  { name: 'structure_digest', label: M.structureLabel, help: M.structureHelp },
  { name: 'portfolio_digest', label: M.portfolioLabel, help: M.portfolioHelp },
] as const;

/** « Rappels » of « Mon compte » (issue 32): each digest on or off, saved together. */
export function ReminderPreferences() {
  const queryClient = useQueryClient();
  const saved = useQuery(reminderPreferencesQuery());
  const [choice, setChoice] = useState<Preferences>();
  useEffect(() => {
    if (saved.data) setChoice(saved.data);
  }, [saved.data]);
  const save = useMutation({
    mutationFn: saveReminderPreferences,
    onSuccess: (answer) => {
      notifySuccess(answer.message, M.saveTitle);
      queryClient.setQueryData(reminderPreferencesQuery().queryKey, answer);
    },
    meta: { errorTitle: M.saveTitle },
  });

  if (saved.error) return <ErrorAlert title={M.saveTitle} error={saved.error} />;
  if (!choice) return <Loader size="sm" aria-label={MESSAGES.loading} />;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(choice);
      }}
    >
      <Stack>
        <Text>{M.accountIntro}</Text>
        {SWITCHES.map(({ name, label, help }) => (
          <Switch
            key={name}
            label={label}
            description={help}
            checked={choice[name]}
            onChange={(event) => setChoice({ ...choice, [name]: event.currentTarget.checked })}
          />
        ))}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {M.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
