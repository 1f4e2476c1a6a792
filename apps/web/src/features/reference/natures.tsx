import type { Nature } from '@reformes/domain';
import { natureSchema } from '@reformes/domain';
import type { ListConfig } from '../../components/list-page/list-config.ts';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';

export const naturesList: ListConfig<Nature> = {
  resource: 'natures',
  feature: 'natures',
  title: 'Liste des natures',
  errorTitle: 'Nature',
  columns: [
    { label: 'Libellé', render: (row) => row.libnature },
    { label: 'Statut', render: (row) => <StatusBadge isActive={row.is_active} /> },
  ],
  rowLabel: (row) => row.libnature,
  form: {
    schema: natureSchema,
    fields: [{ name: 'libnature', label: 'Libellé' }],
    createTitle: 'Enregistrer une nature',
    editTitle: 'Modifier une nature',
  },
};

/** /admin/natures */
export function NaturesPage() {
  return <ListPage config={naturesList} />;
}
