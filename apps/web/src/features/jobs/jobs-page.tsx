import { Button, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { JOB_KIND_LABELS, JOB_STATES, JOBS_MESSAGES, type JobRow, type JobState } from '@reformes/domain';
import { IconRefresh } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { useListState } from '../../components/use-list-state.ts';
import { JOBS_KEY, jobsPageQuery, retryJob } from './jobs-api.ts';

const STATE_OPTIONS = Object.entries(JOB_STATES).map(([value, label]) => ({ value, label }));
const STATE_FILTER = { etat: Object.keys(JOB_STATES) as JobState[] };

const when = (value: string | null) => (value ? dayjs(value).format('DD/MM/YYYY HH:mm') : '—');

/** /admin/jobs, "Courriels et tâches" (issue 31): failed and waiting mails and jobs; a failed one can be sent again. */
export function JobsPage() {
  // The state shown and the page live in the address (`?etat=pending&page=2`); failed ones by default.
  const { page, setPage, filters, setFilter, clampTo } = useListState({ filters: STATE_FILTER });
  const state = (filters.etat ?? 'failed') as JobState;
  const [toRetry, setToRetry] = useState<JobRow | null>(null);
  const queryClient = useQueryClient();
  const list = useQuery(jobsPageQuery(state, page));
  const rows = list.data?.data ?? [];
  const lastPage = list.data?.last_page ?? 1;
  useEffect(() => {
    if (list.data) clampTo(lastPage);
  }, [list.data, clampTo, lastPage]);
  const isFailed = state === 'failed';

  const retry = useMutation({
    mutationFn: (job: JobRow) => retryJob(job.id),
    onSuccess: (response) => {
      notifySuccess(response.message || JOBS_MESSAGES.retried, JOBS_MESSAGES.retryTitle);
      return queryClient.invalidateQueries({ queryKey: JOBS_KEY });
    },
    onSettled: () => setToRetry(null),
    meta: { errorTitle: JOBS_MESSAGES.retryTitle },
  });

  const columns = ['Destinataire', 'Objet', 'Tentatives', 'Dernière erreur', isFailed ? 'Échec le' : 'Prochain essai'];
  return (
    <Stack>
      <Title order={1}>{JOBS_MESSAGES.title}</Title>
      <SegmentedControl
        aria-label="État des tâches"
        data={STATE_OPTIONS}
        value={state}
        onChange={(value) => setFilter('etat', value === 'failed' ? undefined : value)}
        style={{ alignSelf: 'flex-start' }}
      />
      <DataTable
        error={list.error}
        label={JOBS_MESSAGES.title}
        minWidth={760}
        columns={columns}
        withActions={isFailed}
        highlightOnHover={false}
        isLoading={list.isLoading}
        busy={list.isFetching}
        isEmpty={rows.length === 0}
        empty={JOBS_MESSAGES.empty[state]}
      >
        {rows.map((job) => (
          <Table.Tr key={job.id}>
            <Table.Td>
              {job.to ?? '—'}
              <Text size="xs" c="dimmed">
                {JOB_KIND_LABELS[job.kind] ?? job.kind}
              </Text>
            </Table.Td>
            <Table.Td>{job.subject ?? '—'}</Table.Td>
            <Table.Td>
              {job.attempts} / {job.max_attempts}
            </Table.Td>
            <Table.Td style={{ wordBreak: 'break-word' }}>{job.last_error ?? '—'}</Table.Td>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{when(isFailed ? job.failed_at : job.run_at)}</Table.Td>
            {isFailed && (
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconRefresh size={14} aria-hidden />}
                  aria-label={`${JOBS_MESSAGES.retry} ${job.to ?? `la tâche ${job.id}`}`}
                  onClick={() => setToRetry(job)}
                >
                  {JOBS_MESSAGES.retry}
                </Button>
              </Table.Td>
            )}
          </Table.Tr>
        ))}
      </DataTable>
      <Pagination page={page} total={lastPage} onChange={setPage} />
      <ConfirmDialog
        opened={toRetry !== null}
        title={JOBS_MESSAGES.retryTitle}
        question={`${toRetry?.to ? `${toRetry.to} : ` : ''}${JOBS_MESSAGES.retryConfirm}`}
        loading={retry.isPending}
        onConfirm={() => toRetry && retry.mutate(toRetry)}
        onCancel={() => setToRetry(null)}
      />
    </Stack>
  );
}
