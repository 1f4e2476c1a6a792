import { Badge, Group, Stack, Text } from '@mantine/core';
import { dateTime, etatLabel, formatEuro, longDate, REFORME_MESSAGES, typeLabel } from '@reformes/domain';
import type { ReformeColumn } from './reformes-table.tsx';
import { ViewFileButton } from './view-file-button.tsx';

/** The columns the reform screens pick from (spec §2.10), long French dates in lists (spec §9). */
export const COLUMNS = {
  libref: {
    label: 'Libellé',
    render: (row) => (
      <Group gap="xs" wrap="nowrap">
        <Text size="sm">{row.libref}</Text>
        {!row.is_active && (
          <Badge color="gray" variant="outline" size="sm">
            Désactivée
          </Badge>
        )}
      </Group>
    ),
  },
  type: { label: 'Type', render: (row) => typeLabel(row.typeref) },
  periode: { label: 'Période', render: (row) => row.periodexe },
  periodeExecution: { label: "Période d'exécution", render: (row) => row.periodexe },
  dateDebut: { label: 'Date début', render: (row) => longDate(row.date_debut) },
  dateFin: { label: 'Date fin', render: (row) => longDate(row.date_fin) },
  etat: { label: 'Etat', render: (row) => etatLabel(row.etat_mor) },
  etatMo: { label: 'Etat MO', render: (row) => etatLabel(row.etat_mor) },
  publiee: { label: 'Publiée?', render: (row) => (row.isPublished ? 'Oui' : 'Non') },
  statut: {
    label: 'Statut',
    render: (row) => (
      <Badge color={row.isPublished ? 'green' : 'yellow'} variant="light" miw="max-content">
        {row.isPublished ? REFORME_MESSAGES.statusPublished : REFORME_MESSAGES.statusPending}
      </Badge>
    ),
  },
  dateEnreg: { label: 'Enregistrée le', render: (row) => dateTime(row.date_enreg) },
  objectifGlobal: { label: 'Objectif global', render: (row) => row.objectif_glob },
  population: { label: 'Population cible', render: (row) => row.popul_cible },
  structuresImpliquees: { label: 'Structures impliquées', render: (row) => row.struct_impl },
  montantPrevu: {
    label: 'Montant prévu (EUR)',
    render: (row) => <Text style={{ whiteSpace: 'nowrap' }}>{formatEuro(row.montant_prevu)}</Text>,
  },
  pdf: {
    label: 'PDF',
    render: (row) =>
      row.files.length === 0 ? (
        '—'
      ) : (
        <Stack gap={2}>
          {row.files.map((file) => (
            <ViewFileButton key={file.id} file={file} />
          ))}
        </Stack>
      ),
  },
} satisfies Record<string, ReformeColumn>;
