import { Alert, Anchor, Button, FileInput, Group, List, Paper, Progress, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { IMPORT_MAX_BYTES, IMPORT_MESSAGES, type ImportIssue, type ImportPreview, type ImportRow } from '@reformes/domain';
import { IconDownload, IconFileImport, IconPencil, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../../api/api-error.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { notifySuccess } from '../../../components/notify.tsx';
import { Pagination } from '../../../components/pagination.tsx';
import { checkImportRows, downloadImportTemplate, importRows, previewImportFile } from './import-api.ts';
import { ImportRowModal } from './import-row-modal.tsx';

const PAGE_SIZE = 50;

interface Loaded {
  fileName: string;
  rows: ImportRow[];
  preview: ImportPreview;
}

/**
 * "Importer des réformes" (/admin/import-reformes, from "Liste des réformes"): a CSV or xlsx file is read by the
 * server, which says every line's issues; lines are fixed or dropped here and checked again by the server; then
 * the reforms without issues are imported in one go. Nothing is written before "Importer".
 */
export function ImportPage() {
  const [file, setFile] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<number>();
  const [loaded, setLoaded] = useState<Loaded>();
  const [onlyIssues, setOnlyIssues] = useState(false);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<ImportRow>();
  const [confirming, setConfirming] = useState(false);

  const read = useMutation({
    // Refused before a byte is sent, with the server's own limit and words.
    mutationFn: async (chosen: File) => {
      if (chosen.size > IMPORT_MAX_BYTES) throw new ApiError(413, IMPORT_MESSAGES.tooLarge);
      return previewImportFile(chosen, setUploaded);
    },
    onSuccess: ({ rows, ...preview }, chosen) => {
      setLoaded({ fileName: chosen.name, rows, preview });
      setPage(1);
      setOnlyIssues(preview.issues.length > 0);
    },
    onSettled: () => setUploaded(undefined),
  });
  const check = useMutation({
    mutationFn: (rows: ImportRow[]) => checkImportRows(rows),
    onSuccess: (preview, rows) => setLoaded((current) => current && { ...current, rows, preview }),
    meta: { errorTitle: IMPORT_MESSAGES.title },
  });
  const write = useMutation({
    mutationFn: (rows: ImportRow[]) => importRows(rows),
    onSuccess: (response) => {
      notifySuccess(response.message, IMPORT_MESSAGES.title);
      setConfirming(false);
      setLoaded(undefined);
      setFile(null);
    },
    onError: () => setConfirming(false),
    meta: { errorTitle: IMPORT_MESSAGES.title },
  });

  const issuesByLine = useMemo(() => {
    const map = new Map<number, ImportIssue[]>();
    for (const issue of loaded?.preview.issues ?? []) map.set(issue.line, [...(map.get(issue.line) ?? []), issue]);
    return map;
  }, [loaded]);
  const shown = (loaded?.rows ?? []).filter((row) => !onlyIssues || issuesByLine.has(row.line));
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const visible = shown.slice((Math.min(page, pages) - 1) * PAGE_SIZE, Math.min(page, pages) * PAGE_SIZE);

  const replaceRows = (rows: ImportRow[]) => check.mutate(rows);
  const drop = (line: number) => loaded && replaceRows(loaded.rows.filter((row) => row.line !== line));

  return (
    <Stack>
      <Title order={1}>{IMPORT_MESSAGES.title}</Title>
      <Text>
        Une ligne par résultat attendu. Une ligne dont la colonne « Réforme » est vide (ou reprend celle de la ligne du dessus) complète
        cette réforme : objectif et résultat. Les noms de structure (sigle ou désignation), de nature et de couverture sont ceux des listes
        de référence ; les dates s'écrivent jj/mm/aaaa.
      </Text>
      <Group gap="xs">
        <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => downloadImportTemplate('csv')}>
          Télécharger le modèle (CSV)
        </Button>
        <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => downloadImportTemplate('xlsx')}>
          Télécharger le modèle (Excel)
        </Button>
      </Group>

      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group align="flex-end">
            <FileInput
              label="Fichier CSV ou Excel (.xlsx)"
              placeholder="Choisir un fichier"
              accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
              value={file}
              onChange={(chosen) => {
                setFile(chosen);
                read.reset();
              }}
              clearable
              clearButtonProps={{ 'aria-label': 'Retirer le fichier choisi' }}
              leftSection={<IconUpload size={16} aria-hidden />}
              style={{ flex: '1 1 320px' }}
            />
            <Button onClick={() => file && read.mutate(file)} disabled={!file} loading={read.isPending}>
              Lire le fichier
            </Button>
          </Group>
          {uploaded !== undefined && (
            <Stack gap={4}>
              <Progress value={Math.round(uploaded * 100)} aria-label="Envoi du fichier" animated={uploaded >= 1} />
              <Text size="sm" aria-live="polite">
                {uploaded < 1 ? `Envoi du fichier : ${Math.round(uploaded * 100)} %` : 'Lecture et vérification des lignes…'}
              </Text>
            </Stack>
          )}
          {read.error && <ErrorAlert title={IMPORT_MESSAGES.title} error={read.error} />}
        </Stack>
      </Paper>

      {loaded && (
        <Stack component="section" aria-labelledby="import-preview">
          <Title order={2} size="h3" id="import-preview">
            Aperçu de {loaded.fileName}
          </Title>
          <Alert color={loaded.preview.issues.length > 0 ? 'yellow' : 'green'} role="status">
            {summaryOf(loaded)}
          </Alert>
          <Group justify="space-between">
            <Switch
              label="Seulement les lignes en erreur"
              checked={onlyIssues}
              onChange={(event) => setOnlyIssues(event.currentTarget.checked)}
            />
            <Button
              leftSection={<IconFileImport size={16} aria-hidden />}
              disabled={loaded.preview.valid === 0 || check.isPending}
              onClick={() => setConfirming(true)}
            >
              {`Importer ${loaded.preview.valid} réforme(s) sans erreur`}
            </Button>
          </Group>
          <Table.ScrollContainer minWidth={900}>
            <Table striped withTableBorder aria-label="Lignes du fichier" aria-busy={check.isPending}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Ligne</Table.Th>
                  <Table.Th scope="col">Réforme</Table.Th>
                  <Table.Th scope="col">Objectif</Table.Th>
                  <Table.Th scope="col">Résultat attendu</Table.Th>
                  <Table.Th scope="col">Erreurs</Table.Th>
                  <Table.Th scope="col">Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {visible.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={6}>
                      <Text c="dimmed">Aucune ligne en erreur.</Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  visible.map((row) => (
                    <Table.Tr key={row.line}>
                      <Table.Td>{row.line}</Table.Td>
                      <Table.Td>{row.cells.libref ?? ''}</Table.Td>
                      <Table.Td>{row.cells.libobjectif ?? ''}</Table.Td>
                      <Table.Td>{row.cells.libresult ?? ''}</Table.Td>
                      <Table.Td>
                        <LineIssues issues={issuesByLine.get(row.line)} />
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            leftSection={<IconPencil size={14} aria-hidden />}
                            aria-label={`Corriger la ligne ${row.line}`}
                            onClick={() => setEditing(row)}
                          >
                            Corriger
                          </Button>
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            color="red"
                            leftSection={<IconTrash size={14} aria-hidden />}
                            aria-label={`Retirer la ligne ${row.line}`}
                            disabled={check.isPending}
                            onClick={() => drop(row.line)}
                          >
                            Retirer
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Pagination page={Math.min(page, pages)} total={pages} onChange={setPage} label="Pagination des lignes" />
        </Stack>
      )}
      {write.isSuccess && (
        <Alert color="green" role="status">
          {write.data.message}.{' '}
          <Anchor component={Link} to="/admin/list-reformes">
            Voir la liste des réformes
          </Anchor>
        </Alert>
      )}

      <ImportRowModal
        row={editing}
        issues={editing ? issuesByLine.get(editing.line) : undefined}
        onClose={() => setEditing(undefined)}
        onSave={(fixed) => {
          setEditing(undefined);
          if (loaded) replaceRows(loaded.rows.map((row) => (row.line === fixed.line ? fixed : row)));
        }}
      />
      <ConfirmDialog
        opened={confirming}
        title={IMPORT_MESSAGES.title}
        question={`Importer ${loaded?.preview.valid ?? 0} réforme(s) ? Les lignes en erreur ne seront pas importées.`}
        loading={write.isPending}
        onConfirm={() => loaded && write.mutate(loaded.rows)}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}

function summaryOf({ rows, preview }: Loaded): string {
  const wrongLines = new Set(preview.issues.map((issue) => issue.line)).size;
  const base = `${rows.length} ligne(s), ${preview.reformes} réforme(s) : ${preview.valid} sans erreur (${preview.validLines} ligne(s))`;
  return wrongLines === 0 ? `${base}.` : `${base}, ${preview.issues.length} erreur(s) sur ${wrongLines} ligne(s).`;
}

function LineIssues({ issues }: { issues: ImportIssue[] | undefined }) {
  if (!issues || issues.length === 0) return <Text size="sm">Aucune</Text>;
  return (
    <List size="sm" spacing={2}>
      {issues.map((issue) => (
        <List.Item key={`${issue.column}-${issue.message}`}>
          <Text size="sm" c="red.9" component="span">
            {issue.column ? `${issue.column} : ${issue.message}` : issue.message}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
