import type { AdministrativeEntity } from '@reformes/domain';
import { entitySchema } from '@reformes/domain';
import type { ListConfig } from '../../components/list-page/list-config.ts';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';

export const entitiesList: ListConfig<AdministrativeEntity> = {
  resource: 'entities',
  feature: 'entities',
  title: 'Liste des entités administratives',
  errorTitle: 'Entité administrative',
  columns: [
    { label: '#', render: (_row, position) => position, ofRow: false },
    { label: 'Libellé', render: (row) => row.libelle },
    { label: 'Statut', render: (row) => <StatusBadge isActive={row.is_active} /> },
  ],
  rowLabel: (row) => row.libelle,
  form: {
    schema: entitySchema,
    fields: [{ name: 'libelle', label: 'Libellé' }],
    createTitle: 'Enregistrer une entité',
    editTitle: 'Modifier une entité',
    submitLabel: 'Soumettre',
  },
};

/** /admin/entities */
export function EntitiesPage() {
  return <ListPage config={entitiesList} />;
}
