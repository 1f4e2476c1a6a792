import { SECTORS_ROUTES, STRUCTURES_ROUTES, type Structure, structureSchema, TITLES } from '@reformes/domain';
import { type ListConfig, optionsOf } from '../../components/list-page/list-config.ts';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { STATUS_COLUMN, StatusBadge } from '../../components/status-badge.tsx';

export const structuresList: ListConfig<Structure> = {
  routes: STRUCTURES_ROUTES,
  feature: 'structures',
  title: 'Liste des structures',
  errorTitle: 'Structure',
  listErrorTitle: TITLES.structures,
  columns: [
    { label: 'Libellé', render: (row) => row.designation },
    { label: 'Sigle', render: (row) => row.sigl },
    { label: 'Adresse', render: (row) => row.adresse_struct },
    { label: 'email', render: (row) => row.email },
    { label: 'Téléphone', render: (row) => row.telephone },
    { label: 'Secteur', render: (row) => row.sector?.libsecteur },
    STATUS_COLUMN,
  ],
  rowLabel: (row) => `${row.designation} (${row.sigl})`,
  form: {
    schema: structureSchema,
    fields: [
      { name: 'designation', label: 'Libellé' },
      { name: 'sigl', label: 'Sigle' },
      { name: 'adresse_struct', label: 'Adresse' },
      { name: 'email', label: 'Email', kind: 'email' },
      { name: 'telephone', label: 'Téléphone', kind: 'tel' },
      {
        name: 'sector_id',
        label: 'Secteur',
        kind: 'select',
        options: optionsOf(SECTORS_ROUTES, (sector) => ({
          value: String(sector.id),
          label: sector.libsecteur,
        })),
      },
    ],
    createTitle: 'Enregistrer une structure',
    editTitle: 'Modifier une structure',
  },
  details: {
    fields: [
      { label: 'Libellé', value: (row) => row.designation },
      { label: 'Sigle', value: (row) => row.sigl },
      { label: 'Adresse', value: (row) => row.adresse_struct },
      { label: 'Email', value: (row) => row.email },
      { label: 'Téléphone', value: (row) => row.telephone },
      { label: 'Secteur', value: (row) => row.sector?.libsecteur },
      { label: 'Statut', value: (row) => <StatusBadge isActive={row.is_active} /> },
    ],
  },
};

/** /admin/structures */
export function StructuresPage() {
  return <ListPage config={structuresList} />;
}
