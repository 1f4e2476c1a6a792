import { Alert, Button, Center, Checkbox, Group, Loader, Modal, Stack, Table, Tabs, Text } from '@mantine/core';
import { MESSAGES, REFORME_MESSAGES, TIMELINE_MESSAGES, WORKFLOW_MESSAGES } from '@reformes/domain';
import { IconArrowBackUp, IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { ReformePrintSheet } from './reforme-print-sheet.tsx';
import { ObjectifsView, ReformeSheet } from './reforme-sheet.tsx';
import { ReformeTimeline } from './reforme-timeline.tsx';
import { type ReformeDetail, reformeQuery } from './reformes-api.ts';
import { wholeTimelineQuery } from './timeline-api.ts';
import { ViewFileButton } from './view-file-button.tsx';

interface ReformeDetailModalProps {
  /** The reform shown; the modal is closed when undefined. */
  reformeId: number | undefined;
  /** Spec §4: in "Liste des réformes à valider" a result reads "En attente d'atteinte" or "atteint". */
  inValidationList?: boolean;
  onClose: () => void;
}

/**
 * The reform's detail (spec §2.10): the sheet, its objectives and results, its attachments and its
 * history, with the return instruction on top when the reform was sent back. "Imprimer" prints the sheet.
 */
export function ReformeDetailModal({ reformeId, inValidationList = false, onClose }: ReformeDetailModalProps) {
  return (
    <Modal opened={reformeId !== undefined} onClose={onClose} title="Fiche de la réforme">
      {reformeId !== undefined && <ReformeDetailContent reformeId={reformeId} inValidationList={inValidationList} onClose={onClose} />}
    </Modal>
  );
}

function ReformeDetailContent({
  reformeId,
  inValidationList,
  onClose,
}: {
  reformeId: number;
  inValidationList: boolean;
  onClose: () => void;
}) {
  const reforme = useQuery(reformeQuery(reformeId));
  if (reforme.isPending) {
    return (
      <Center py="xl" role="status">
        <Loader aria-label={MESSAGES.loading} />
      </Center>
    );
  }
  if (reforme.isError) return <ErrorAlert title={REFORME_MESSAGES.errorTitle} error={reforme.error} />;
  return <ReformeDetailTabs reforme={reforme.data} inValidationList={inValidationList} onClose={onClose} />;
}

function ReformeDetailTabs({
  reforme,
  inValidationList,
  onClose,
}: {
  reforme: ReformeDetail;
  inValidationList: boolean;
  onClose: () => void;
}) {
  const [withHistory, setWithHistory] = useState(false);
  // Read only when asked for: the printed sheet then lists every line, not the tab's page.
  const history = useQuery({ ...wholeTimelineQuery(reforme.id), enabled: withHistory });
  return (
    <Stack>
      {reforme.affectation?.instruction && (
        <Alert color="orange" title={WORKFLOW_MESSAGES.returnedBanner} icon={<IconArrowBackUp aria-hidden />}>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {WORKFLOW_MESSAGES.instructionLabel} : {reforme.affectation.instruction}
          </Text>
        </Alert>
      )}
      <Text fw={700}>{reforme.libref}</Text>
      <Tabs defaultValue="details" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="details">Détails de la réforme</Tabs.Tab>
          <Tabs.Tab value="objectifs">Objectifs et résultats attendus</Tabs.Tab>
          <Tabs.Tab value="files">{REFORME_MESSAGES.filesTitle}</Tabs.Tab>
          <Tabs.Tab value="history">Historique</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          <ReformeSheet reforme={reforme} />
        </Tabs.Panel>
        <Tabs.Panel value="objectifs" pt="md">
          <ObjectifsView objectifs={reforme.objectifs} inValidationList={inValidationList} />
        </Tabs.Panel>
        <Tabs.Panel value="files" pt="md">
          {reforme.files.length === 0 ? (
            <Text c="dimmed">{REFORME_MESSAGES.noFiles}</Text>
          ) : (
            <Table withTableBorder aria-label={REFORME_MESSAGES.filesTitle}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Nom du fichier</Table.Th>
                  <Table.Th w={180}>Fichier</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {reforme.files.map((file) => (
                  <Table.Tr key={file.id}>
                    <Table.Td>{file.name_file}</Table.Td>
                    <Table.Td>
                      <ViewFileButton file={file} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <ReformeTimeline reformeId={reforme.id} />
        </Tabs.Panel>
      </Tabs>
      <Group justify="flex-end">
        <Checkbox
          label={TIMELINE_MESSAGES.printWithHistory}
          checked={withHistory}
          onChange={(event) => setWithHistory(event.currentTarget.checked)}
        />
        <Button
          variant="light"
          leftSection={<IconPrinter size={16} aria-hidden />}
          loading={withHistory && history.isFetching}
          onClick={() => window.print()}
        >
          Imprimer
        </Button>
        <Button variant="default" onClick={onClose}>
          Fermer
        </Button>
      </Group>
      <ReformePrintSheet reforme={reforme} inValidationList={inValidationList} history={withHistory ? history.data : undefined} />
    </Stack>
  );
}
