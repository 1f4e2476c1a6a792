import { Badge, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import {
  AUDIT_ACTION_CODES,
  AUDIT_COLUMNS,
  AUDIT_MESSAGES,
  type AuditEntry,
  auditActionLabel,
  auditDetailsText,
  auditResultText,
  auditTargetText,
  SEARCH_MIN_LENGTH,
} from '@reformes/domain';
import { IconFileExport } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { DataTable } from '../../components/data-table.tsx';
import { ListSearchBar } from '../../components/list-page/list-page.tsx';
import { useSearchedPages } from '../../components/list-page/use-list-controller.ts';
import { Pagination } from '../../components/pagination.tsx';
import { useListState } from '../../components/use-list-state.ts';
import { type AuditFilterValues, auditPageQuery, auditQueryOf, downloadAuditCsv, NO_FILTERS } from './audit-api.ts';
import { AuditFiltersBar, isPeriodInOrder } from './audit-filters.tsx';

/** The filters the address may carry, each read through its rule: a value it refuses is no filter. */
const isDay = (raw: string) => /^\d{4}-\d{2}-\d{2}$/.test(raw) && dayjs(raw).isValid();
const FILTER_RULES = { action: AUDIT_ACTION_CODES, result: ['success', 'failure'], from: isDay, to: isDay } as const;

/** /admin/audit, "Journal d'audit": the security events, for admin only (app/routes.tsx; the server checks it too). */
export function AuditPage() {
  // The applied filters live in the address with the page and the search (useListState), so a shared link restores them.
  const state = useListState({ filters: FILTER_RULES });
  const applied: AuditFilterValues = { ...NO_FILTERS, ...state.filters };
  // What the bar shows: a period that ends before it starts is shown with its error, not sent: the list keeps the
  // last valid one.
  const [filters, setFilters] = useState<AuditFilterValues>(applied);
  const list = useSearchedPages((page, search) => auditPageQuery(page, auditQueryOf(applied, search)));
  const { rows } = list;
  const search = list.search.trim();

  const changeFilters = (next: AuditFilterValues) => {
    setFilters(next);
    if (!isPeriodInOrder(next)) return;
    // One change of the address for the four filters, page 1.
    state.setFilters(next);
  };
  const reset = () => {
    setFilters(NO_FILTERS);
    state.reset();
  };

  const exportCsv = useMutation({
    mutationFn: () => downloadAuditCsv(auditQueryOf(applied, search.length >= SEARCH_MIN_LENGTH ? search : '')),
    meta: { errorTitle: AUDIT_MESSAGES.exportTitle },
  });

  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Title order={1}>{AUDIT_MESSAGES.title}</Title>
        <Button
          variant="light"
          leftSection={<IconFileExport size={16} aria-hidden />}
          loading={exportCsv.isPending}
          onClick={() => exportCsv.mutate()}
        >
          {AUDIT_MESSAGES.export}
        </Button>
      </Group>
      <AuditFiltersBar filters={filters} onChange={changeFilters} />
      <ListSearchBar count={list.total} search={list.search} onSearchChange={list.setSearch} onReset={reset} />

      <DataTable
        error={list.error}
        label={AUDIT_MESSAGES.title}
        minWidth={760}
        columns={AUDIT_COLUMNS}
        highlightOnHover={false}
        isLoading={list.isLoading}
        isEmpty={rows.length === 0}
        empty={AUDIT_MESSAGES.empty}
      >
        {rows.map((entry) => (
          <AuditRow key={entry.id} entry={entry} />
        ))}
      </DataTable>
      <Pagination {...list.pagination} />
    </Stack>
  );
}

function AuditRow({ entry }: { entry: AuditEntry }) {
  const details = auditDetailsText(entry.details);
  return (
    <Table.Tr>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{dayjs(entry.created_at).format('DD/MM/YYYY HH:mm:ss')}</Table.Td>
      <Table.Td>{entry.actor_email ?? '—'}</Table.Td>
      <Table.Td>{auditActionLabel(entry.action)}</Table.Td>
      <Table.Td>
        {auditTargetText(entry) || '—'}
        {details && (
          <Text size="xs" c="dimmed">
            {details}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Badge color={entry.result === 'success' ? 'green' : 'red'} variant="light" style={{ textTransform: 'none' }}>
          {auditResultText(entry)}
        </Badge>
      </Table.Td>
      <Table.Td>{entry.ip ?? '—'}</Table.Td>
    </Table.Tr>
  );
}
