import { Anchor, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { etatLabel, PAGE_HEADS, PUBLIC_MESSAGES, typeLabel } from '@reformes/domain';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { DataTable } from '../../components/data-table.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { longDate } from '../../components/french-format.ts';
import { Pagination } from '../../components/pagination.tsx';
import { usePageHead } from '../../components/use-page-head.ts';
import { openDataUrl } from './public-api.ts';
import { PublicFilters } from './public-filters.tsx';
import { PublicShell } from './public-shell.tsx';
import { usePublicList } from './use-public-list.ts';

const COLUMNS = ['#', 'Libellé', 'Type', 'Période', 'Date début', 'Date fin', 'État'];

const OPEN_DATA = [
  { format: 'csv', label: PUBLIC_MESSAGES.downloadCsv },
  { format: 'json', label: PUBLIC_MESSAGES.downloadJson },
] as const;

/**
 * The list's frame down to its heading. The server's page for /accueil already holds it, drawn at build time
 * (app/prerender.tsx), so that the heading shows before the script has run (issue 20).
 */
export function PublicListFrame({ children }: { children?: ReactNode }) {
  return (
    <PublicShell>
      <Stack>
        <Title order={1}>{PUBLIC_MESSAGES.title}</Title>
        {children}
      </Stack>
    </PublicShell>
  );
}

/** /accueil, open to everyone: the published reforms, filtered, searched and paged by the server (spec §2.5). */
export function PublicReformesPage() {
  usePageHead(PAGE_HEADS.publicList);
  const list = usePublicList();
  const location = useLocation();

  return (
    <PublicListFrame>
      <PublicFilters filters={list.filters} onFilter={list.setFilter} search={list.search} onSearch={list.setSearch} onReset={list.reset} />
      <Group justify="space-between">
        <Text aria-live="polite">{list.total} élément(s)</Text>
        <Group gap="xs" aria-label={PUBLIC_MESSAGES.openData} role="group">
          {OPEN_DATA.map(({ format, label }) => (
            <Button
              key={format}
              component="a"
              href={openDataUrl(format, list.filters)}
              download
              variant="default"
              size="xs"
              leftSection={<IconDownload size={14} aria-hidden />}
            >
              {label}
            </Button>
          ))}
        </Group>
      </Group>
      {list.error ? (
        <ErrorAlert title={PUBLIC_MESSAGES.title} error={list.error} />
      ) : list.hasData && list.rows.length === 0 ? (
        <Paper withBorder p="lg">
          <Stack align="center" gap="sm">
            <Text>{PUBLIC_MESSAGES.noMatch}</Text>
            <Button variant="light" onClick={list.reset}>
              {PUBLIC_MESSAGES.reset}
            </Button>
          </Stack>
        </Paper>
      ) : (
        <DataTable
          label={PUBLIC_MESSAGES.title}
          minWidth={800}
          columns={COLUMNS}
          isLoading={!list.hasData}
          busy={list.isLoading}
          isEmpty={!list.hasData}
        >
          {list.rows.map((row, index) => (
            <Table.Tr key={row.id}>
              <Table.Td>{list.firstIndex + index + 1}</Table.Td>
              <Table.Td>
                <Anchor component={Link} to={`/accueil/reformes/${row.id}`} state={{ from: location.search }}>
                  {row.libref}
                </Anchor>
              </Table.Td>
              <Table.Td>{typeLabel(row.typeref)}</Table.Td>
              <Table.Td>{row.periodexe}</Table.Td>
              <Table.Td>{longDate(row.date_debut)}</Table.Td>
              <Table.Td>{longDate(row.date_fin)}</Table.Td>
              <Table.Td>{etatLabel(row.etat_mor)}</Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      )}
      <Pagination {...list.pagination} label="Pages des réformes publiées" />
    </PublicListFrame>
  );
}
