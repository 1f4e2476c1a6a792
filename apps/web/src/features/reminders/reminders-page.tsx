import { Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { dateTime, REMINDER_MESSAGES as M, MESSAGES, type ReminderRun } from '@reformes/domain';
import { IconMailForward } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { Term } from '../../components/term.tsx';
import { useCan } from '../../session/use-can.ts';
import { REMINDERS_KEY, remindersStatusQuery, runReminders } from './reminders-api.ts';

function LastRun({ run }: { run: ReminderRun }) {
  return (
    <SimpleGrid component="dl" cols={{ base: 2, sm: 4 }} m={0}>
      <Term term={M.runStarted}>{dateTime(run.started_at)}</Term>
      <Term term={M.runFinished}>{run.finished_at ? dateTime(run.finished_at) : M.runNotFinished}</Term>
      <Term term={M.triggerLabel}>{M.triggers[run.trigger]}</Term>
      <Term term={M.mails}>{run.mails}</Term>
      <Term term={M.delivered}>{run.delivered}</Term>
      <Term term={M.waiting}>{run.waiting}</Term>
      <Term term={M.failed}>{run.failed}</Term>
      <Term term={M.errors}>{run.errors}</Term>
    </SimpleGrid>
  );
}

/** /admin/reminders, « Rappels » (issue 32): when the digests leave, the last run, and sending them now. */
export function RemindersPage() {
  const canRun = useCan('jobs', 'edit');
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const status = useQuery(remindersStatusQuery());
  const run = useMutation({
    mutationFn: runReminders,
    onSuccess: (answer) => {
      notifySuccess(answer.message, M.runTitle);
      return queryClient.invalidateQueries({ queryKey: REMINDERS_KEY });
    },
    onSettled: () => setConfirming(false),
    meta: { errorTitle: M.runTitle },
  });
  const data = status.data;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>{M.title}</Title>
        {canRun && (
          <Button leftSection={<IconMailForward size={16} aria-hidden />} onClick={() => setConfirming(true)}>
            {M.runNow}
          </Button>
        )}
      </Group>
      {status.isLoading && <Loader size="sm" aria-label={MESSAGES.loading} />}
      {status.error ? <ErrorAlert title={M.title} error={status.error} /> : null}
      {data && (
        <>
          <Paper withBorder p="md" component="section" aria-labelledby="reminders-schedule">
            <Title order={2} size="h4" id="reminders-schedule" mb="xs">
              {M.scheduleTitle}
            </Title>
            <Text>{M.schedule(data.daily_at)}</Text>
            <Text component="ul" size="sm" mt="xs">
              <li>{M.structureRule(data.no_follow_up_days)}</li>
              <li>{M.portfolioRule}</li>
            </Text>
          </Paper>
          <Paper withBorder p="md" component="section" aria-labelledby="reminders-last-run">
            <Title order={2} size="h4" id="reminders-last-run" mb="xs">
              {M.lastRunTitle}
            </Title>
            {data.last_run ? <LastRun run={data.last_run} /> : <Text>{M.neverRun}</Text>}
          </Paper>
        </>
      )}
      <ConfirmDialog
        opened={confirming}
        title={M.runTitle}
        question={M.runConfirm}
        loading={run.isPending}
        onConfirm={() => run.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}
