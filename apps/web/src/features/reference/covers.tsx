import type { Cover } from '@reformes/domain';
import { coverSchema } from '@reformes/domain';
import type { ListConfig } from '../../components/list-page/list-config.ts';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';

export const coversList: ListConfig<Cover> = {
  resource: 'covers',
  feature: 'covers',
  title: 'Liste des couvertures',
  errorTitle: 'Couverture',
  columns: [
    { label: 'Libellé', render: (row) => row.lib_couvert },
    { label: 'Statut', render: (row) => <StatusBadge isActive={row.is_active} /> },
  ],
  rowLabel: (row) => row.lib_couvert,
  form: {
    schema: coverSchema,
    fields: [{ name: 'lib_couvert', label: 'Libellé' }],
    // Spec §2.9, capital letter included.
    createTitle: 'Enregistrer une Couverture',
    editTitle: 'Modifier une couverture',
  },
};

/** /admin/covers */
export function CoversPage() {
  return <ListPage config={coversList} />;
}
