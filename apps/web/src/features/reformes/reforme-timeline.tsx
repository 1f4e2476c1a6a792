import { Select, Stack, Table, Text, Title } from '@mantine/core';
import { TIMELINE_ACTIONS, TIMELINE_KINDS, TIMELINE_MESSAGES, TIMELINE_ROUTES, type TimelineKind } from '@reformes/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { call } from '../../api/call.ts';
import { PAGE_SIZE } from '../../api/list-api.ts';
import { DataTable } from '../../components/data-table.tsx';
import { Pagination } from '../../components/pagination.tsx';

const KIND_OPTIONS = [
  { value: '', label: TIMELINE_MESSAGES.allKinds },
  ...Object.entries(TIMELINE_KINDS).map(([value, label]) => ({ value, label })),
];
const COLUMNS = ['Date', 'Élément', 'Action', 'Champ', 'Avant', 'Après', 'Par'];

/**
 * Every change of the reform, field by field, with the workflow's steps (issue 32): `GET reformes/{id}/history`,
 * newest first, a page at a time, filterable by kind.
 */
export function ReformeTimeline({ reformeId }: { reformeId: number }) {
  const [kind, setKind] = useState<TimelineKind | ''>('');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['reformes', reformeId, 'history', kind, page],
    queryFn: ({ signal }) =>
      call(TIMELINE_ROUTES.history, { params: { id: reformeId }, query: { kind: kind || undefined, page, per_page: PAGE_SIZE }, signal }),
    select: (answer) => answer.data,
    placeholderData: keepPreviousData,
  });
  const lines = list.data?.data ?? [];
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        Toutes les modifications
      </Title>
      <Select
        label={TIMELINE_MESSAGES.kindFilter}
        data={KIND_OPTIONS}
        value={kind}
        allowDeselect={false}
        onChange={(value) => {
          setKind((value ?? '') as TimelineKind | '');
          setPage(1);
        }}
        maw={280}
      />
      <DataTable
        label="Modifications de la réforme"
        error={list.error}
        minWidth={760}
        columns={COLUMNS}
        highlightOnHover={false}
        isLoading={list.isLoading}
        busy={list.isFetching}
        isEmpty={lines.length === 0}
        empty={TIMELINE_MESSAGES.empty}
      >
        {lines.map((line) => (
          <Table.Tr key={line.key}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{dayjs(line.at).format('DD/MM/YYYY HH:mm')}</Table.Td>
            <Table.Td>{TIMELINE_KINDS[line.kind as TimelineKind] ?? line.kind}</Table.Td>
            <Table.Td>{TIMELINE_ACTIONS[line.action] ?? line.action}</Table.Td>
            <Table.Td>{line.field_label ?? '—'}</Table.Td>
            <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{line.before ?? '—'}</Table.Td>
            <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
              {line.after ?? '—'}
              {line.instruction && (
                <Text size="xs" c="dimmed">
                  {line.instruction}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              {line.actor ? (
                <>
                  {line.actor.name}
                  <Text size="xs" c="dimmed">
                    {[line.actor.role, line.actor.structure].filter(Boolean).join(' · ')}
                  </Text>
                </>
              ) : (
                TIMELINE_MESSAGES.system
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <Pagination page={page} total={list.data?.last_page ?? 1} onChange={setPage} />
    </Stack>
  );
}
