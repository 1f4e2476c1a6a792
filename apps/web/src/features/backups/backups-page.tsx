import { ActionBar, Anchor, Button, Group, Loader, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { BACKUP_MESSAGES, MESSAGES } from '@reformes/domain';
import { IconDatabaseExport, IconDownload, IconX } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useState } from 'react';
import { resourceKey } from '../../api/list-api.ts';
import { DataTable, SelectableRow } from '../../components/data-table.tsx';
import { ListSearchBar } from '../../components/list-page/list-page.tsx';
import { useSearchedPages } from '../../components/list-page/use-list-controller.ts';
import { notifySuccess } from '../../components/notify.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { useCan } from '../../session/use-can.ts';
import { BACKUPS_LIST, type Backup, backupsPageQuery, downloadBackup, makeBackup } from './backups-api.ts';

const TYPE_LABELS: Record<string, string> = {
  doc: 'Documents',
  embedded: 'Base de données (PostgreSQL embarqué)',
  // Backups made while the embedded database was PGlite, still listed.
  pglite: 'Base de données (PGlite)',
  postgresql: 'Base de données (PostgreSQL)',
};

export const typeLabelOf = (type: string) => TYPE_LABELS[type] ?? type;

const BACKUP_COLUMNS = ['#', 'Libellé', 'Type', 'Fichier', 'Date'];

const sizeFormat = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });

/** `formatSize(1536)` is "1,5 Ko". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} o`;
  if (bytes < 1024 ** 2) return `${sizeFormat.format(bytes / 1024)} Ko`;
  if (bytes < 1024 ** 3) return `${sizeFormat.format(bytes / 1024 ** 2)} Mo`;
  return `${sizeFormat.format(bytes / 1024 ** 3)} Go`;
}

/** /admin/backups, "Liste des sauvegardes" (spec §2.9): admin only (app/routes.tsx), the server checks it too. */
export function BackupsPage() {
  const canSave = useCan('backups', 'add');
  const queryClient = useQueryClient();
  const list = useSearchedPages(backupsPageQuery);
  const { rows } = list;
  // The selection belongs to the rows it was made on: another page, search or reload clears it.
  const [selection, setSelection] = useState<{ id: number; loadedAt: string } | null>(null);
  const selectedId = selection?.loadedAt === list.loadedAt ? selection.id : null;
  const selected = rows.find((row) => row.id === selectedId);
  const clearSelection = () => setSelection(null);
  // What the action bar shows; kept while it closes, so its content does not vanish mid-transition.
  const [barRow, setBarRow] = useState<Backup>();
  const select = (backup: Backup) => {
    setSelection({ id: backup.id, loadedAt: list.loadedAt });
    setBarRow(backup);
  };

  const save = useMutation({
    mutationFn: makeBackup,
    onSuccess: (response) => {
      notifySuccess(response.message || BACKUP_MESSAGES.saved, BACKUP_MESSAGES.saveTitle);
      // The newest backups come first.
      list.setPage(1);
      return queryClient.invalidateQueries({ queryKey: resourceKey(BACKUPS_LIST) });
    },
    meta: { errorTitle: BACKUP_MESSAGES.saveTitle },
  });

  const download = useMutation({
    mutationFn: downloadBackup,
    meta: { errorTitle: BACKUP_MESSAGES.saveTitle },
  });
  const isDownloading = (backup: Backup) => download.isPending && download.variables?.name === backup.name;

  return (
    <Stack pb={selected ? 96 : undefined}>
      <Title order={1}>{BACKUP_MESSAGES.title}</Title>
      {canSave && (
        <Group>
          <Button leftSection={<IconDatabaseExport size={16} aria-hidden />} loading={save.isPending} onClick={() => save.mutate()}>
            Effectuer une sauvegarde
          </Button>
          <VisuallyHidden role="status">{save.isPending ? 'Sauvegarde en cours...' : ''}</VisuallyHidden>
        </Group>
      )}
      <ListSearchBar count={list.total} search={list.search} onSearchChange={list.setSearch} onReset={list.resetSearch} />

      <DataTable
        error={list.error}
        errorTitle={BACKUP_MESSAGES.saveTitle}
        label={BACKUP_MESSAGES.title}
        minWidth={640}
        columns={BACKUP_COLUMNS}
        selectable
        isLoading={list.isLoading}
        isEmpty={rows.length === 0}
        empty={list.search.trim() ? MESSAGES.nothingFound : 'Aucune sauvegarde'}
      >
        {rows.map((backup, index) => (
          <SelectableRow
            key={backup.id}
            group="backups-selection"
            label={`Sélectionner ${backup.name}`}
            isSelected={backup.id === selectedId}
            onSelect={() => select(backup)}
          >
            <Table.Td>{list.firstPosition + index}</Table.Td>
            <Table.Td>{backup.name}</Table.Td>
            <Table.Td>{typeLabelOf(backup.type)}</Table.Td>
            <Table.Td>
              <Anchor
                component="button"
                type="button"
                size="sm"
                aria-label={`Télécharger ${backup.name}`}
                disabled={isDownloading(backup)}
                onClick={(event) => {
                  event.stopPropagation();
                  download.mutate(backup);
                }}
              >
                <Group gap={4} wrap="nowrap">
                  {isDownloading(backup) ? <Loader size={14} /> : <IconDownload size={16} aria-hidden />}
                  Télécharger
                </Group>
              </Anchor>
            </Table.Td>
            <Table.Td>{dayjs(backup.created_at).format('DD/MM/YYYY')}</Table.Td>
          </SelectableRow>
        ))}
      </DataTable>
      <Pagination {...list.pagination} />

      <ActionBar
        opened={selected !== undefined}
        onClose={clearSelection}
        closeOnEscape
        withinPortal={false}
        aria-label="Sauvegarde sélectionnée"
        p="sm"
        maw="min(760px, calc(100% - 2rem))"
        shadow="md"
      >
        {barRow && (
          <Group justify="space-between" wrap="nowrap" gap="sm" miw={0} style={{ flex: 1 }}>
            <Text size="sm" truncate miw={0} style={{ flex: 1 }}>
              <Text span fw={600}>
                {barRow.name}
              </Text>{' '}
              · {typeLabelOf(barRow.type)} · {formatSize(barRow.size)}
            </Text>
            <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
              <Button
                size="xs"
                leftSection={<IconDownload size={16} aria-hidden />}
                loading={isDownloading(barRow)}
                onClick={() => download.mutate(barRow)}
              >
                Télécharger
              </Button>
              <Button size="xs" variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={clearSelection}>
                Fermer
              </Button>
            </Group>
          </Group>
        )}
      </ActionBar>
    </Stack>
  );
}
