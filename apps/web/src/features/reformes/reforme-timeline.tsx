import { Select, Stack, Table, Text } from '@mantine/core';
import { TIMELINE_ACTIONS, TIMELINE_KINDS, TIMELINE_MESSAGES, type TimelineKind, WORKFLOW_MESSAGES } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { DataTable } from '../../components/data-table.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { timelinePageQuery } from './timeline-api.ts';

const KIND_OPTIONS = [
  { value: '', label: TIMELINE_MESSAGES.allKinds },
  ...Object.entries(TIMELINE_KINDS).map(([value, label]) => ({ value, label })),
];
/** Long texts (a description changed) wrap inside their cell. */
const LONG_TEXT = { whiteSpace: 'pre-wrap', wordBreak: 'break-word' } as const;
const COLUMNS = ['Date', 'Action', 'Par', 'Élément', 'Champ', 'Avant', 'Après', WORKFLOW_MESSAGES.instructionLabel];

/**
 * "Historique": every change of the reform, field by field, and the workflow's steps with their instruction, in one
 * timeline (issue 32): `GET reformes/{id}/history`, newest first, a page at a time, filterable by kind.
 */
export function ReformeTimeline({ reformeId }: { reformeId: number }) {
  const [kind, setKind] = useState<TimelineKind | ''>('');
  const [page, setPage] = useState(1);
  const list = useQuery(timelinePageQuery(reformeId, kind, page));
  const lines = list.data?.data ?? [];
  return (
    <Stack gap="xs">
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
        label="Historique de la réforme"
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
            <Table.Td>{TIMELINE_ACTIONS[line.action] ?? line.action}</Table.Td>
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
            <Table.Td>{TIMELINE_KINDS[line.kind as TimelineKind] ?? line.kind}</Table.Td>
            <Table.Td>{line.field_label ?? '—'}</Table.Td>
            <Table.Td style={LONG_TEXT}>{line.before ?? '—'}</Table.Td>
            <Table.Td style={LONG_TEXT}>{line.after ?? '—'}</Table.Td>
            <Table.Td style={LONG_TEXT}>{line.instruction || '—'}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <Pagination page={page} total={list.data?.last_page ?? 1} onChange={setPage} />
    </Stack>
  );
}
