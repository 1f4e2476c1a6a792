import type { Sector } from '@reformes/domain';
import type { ListConfig } from '../../components/list-page/list-config.ts';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { SECTOR_FORM } from '../../components/sector-form.ts';
import { STATUS_COLUMN } from '../../components/status-badge.tsx';

export const sectorsList: ListConfig<Sector> = {
  ...SECTOR_FORM,
  title: 'Liste des secteurs',
  columns: [{ label: 'Libellé', render: (row) => row.libsecteur }, STATUS_COLUMN],
  rowLabel: (row) => row.libsecteur,
};

/** /admin/sectors */
export function SectorsPage() {
  return <ListPage config={sectorsList} />;
}
