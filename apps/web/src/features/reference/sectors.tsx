import { sectorSchema } from '@reformes/domain';
import type { ListConfig } from '../../components/list-page/list-config.ts';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { StatusBadge } from '../../components/list-page/status-badge.tsx';

export interface Sector {
  id: number;
  libsecteur: string;
  is_active: boolean;
}

export const sectorsList: ListConfig<Sector> = {
  resource: 'sectors',
  feature: 'sectors',
  title: 'Liste des secteurs',
  errorTitle: 'Secteur',
  columns: [
    { label: 'Libellé', render: (row) => row.libsecteur },
    { label: 'Statut', render: (row) => <StatusBadge isActive={row.is_active} /> },
  ],
  searchValues: (row) => [row.libsecteur],
  rowLabel: (row) => row.libsecteur,
  form: {
    schema: sectorSchema,
    fields: [{ name: 'libsecteur', label: 'Libellé' }],
    createTitle: 'Enregistrer un secteur',
    editTitle: 'Modifier un secteur',
  },
  details: {
    fields: [
      { label: 'Libellé', value: (row) => row.libsecteur },
      { label: 'Statut', value: (row) => <StatusBadge isActive={row.is_active} /> },
    ],
  },
};

/** /admin/sectors */
export function SectorsPage() {
  return <ListPage config={sectorsList} />;
}
