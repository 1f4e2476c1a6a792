import { List, Loader, Stack, Text } from '@mantine/core';
import { OBJECTIFS_ROUTES, type ObjectifListRow, objectifSchema, REFORME_MESSAGES, resultStatusText } from '@reformes/domain';
import { IconListCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type ListConfig, serverOptionsOf } from '../../components/list-page/list-config.ts';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { STATUS_COLUMN, StatusBadge } from '../../components/status-badge.tsx';
import { fetchReformesPage, objectifQuery } from './objectifs-api.ts';
import { REFORMES_KEY } from './reformes-api.ts';
import { ResultatModal } from './resultat-modal.tsx';

/** The objective's expected results, read when its details open. */
function ObjectifResults({ id }: { id: number }) {
  const objectif = useQuery(objectifQuery(id));
  if (objectif.isPending) return <Loader size="xs" aria-label="Chargement..." />;
  if (!objectif.data) return <Text c="dimmed">{REFORME_MESSAGES.noResults}</Text>;
  const results = objectif.data.results ?? [];
  if (results.length === 0) return <Text c="dimmed">{REFORME_MESSAGES.noResults}</Text>;
  return (
    <List size="sm" spacing={4}>
      {results.map((result) => (
        <List.Item key={result.id}>
          <Text span fw={600} size="sm">
            {result.libresult}
          </Text>{' '}
          — {result.indicateur} : cible {Number(result.valeur_cible).toLocaleString('fr-FR')}, référence{' '}
          {Number(result.valeurref).toLocaleString('fr-FR')} ({resultStatusText(result.status)}) <StatusBadge isActive={result.is_active} />
        </List.Item>
      ))}
    </List>
  );
}

export const objectifsList: ListConfig<ObjectifListRow> = {
  routes: {
    list: OBJECTIFS_ROUTES.listObjectifs,
    search: OBJECTIFS_ROUTES.searchObjectifs,
    create: OBJECTIFS_ROUTES.createObjectif,
    update: OBJECTIFS_ROUTES.updateObjectif,
    remove: OBJECTIFS_ROUTES.removeObjectif,
    setState: OBJECTIFS_ROUTES.setObjectifState,
  },
  feature: 'objectifs',
  title: 'Liste des objectifs',
  errorTitle: REFORME_MESSAGES.objectifsTitle,
  statusErrorTitle: REFORME_MESSAGES.objectifsTitle,
  columns: [
    { label: 'Libellé', render: (row) => row.libobjectif },
    { label: 'Réformes', render: (row) => row.reforme?.libref ?? '' },
    STATUS_COLUMN,
  ],
  rowLabel: (row) => row.libobjectif,
  form: {
    schema: objectifSchema,
    fields: [
      { name: 'libobjectif', label: "Libellé de l'objectif" },
      {
        name: 'reforme_id',
        label: 'Réforme',
        // Searched on the server: there may be 100 000 reforms.
        kind: 'server-select',
        server: serverOptionsOf({
          queryKey: [...REFORMES_KEY, 'picker'],
          fetchPage: fetchReformesPage,
          toOption: (reforme) => ({ value: String(reforme.id), label: reforme.libref }),
          selectedLabel: (row: ObjectifListRow) => row.reforme?.libref,
        }),
      },
    ],
    createTitle: 'Enregistrer un objectif',
    editTitle: 'Modifier un objectif',
  },
  details: {
    title: "Détails de l'objectif",
    fields: [
      { label: 'Libellé', value: (row) => row.libobjectif },
      { label: 'Réforme', value: (row) => row.reforme?.libref ?? '' },
      { label: 'Statut', value: (row) => <StatusBadge isActive={row.is_active} /> },
      { label: 'Résultats attendus', value: (row) => <ObjectifResults id={row.id} /> },
    ],
  },
};

/** /admin/objectifs (spec §2.9 "Objectifs"): the generic list, plus the expected results of the selected objective. */
export function ObjectifsPage() {
  const [adding, setAdding] = useState<ObjectifListRow>();
  return (
    <Stack>
      <ListPage
        config={objectifsList}
        extraActions={[
          {
            label: 'Résultats attendus',
            action: 'edit',
            icon: <IconListCheck size={16} aria-hidden />,
            onClick: setAdding,
          },
        ]}
      >
        <ResultatModal
          reforme={adding?.reforme ?? (adding ? { id: adding.reforme_id, libref: '' } : undefined)}
          objectifId={adding?.id}
          onClose={() => setAdding(undefined)}
        />
      </ListPage>
    </Stack>
  );
}
