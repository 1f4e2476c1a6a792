import { ROLES_ROUTES, roleSchema, TITLES } from '@reformes/domain';
import { IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import type { ListConfig } from '../../components/list-page/list-config.ts';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { STATUS_COLUMN, StatusBadge } from '../../components/status-badge.tsx';
import type { Role } from './access-api.ts';
import { CopyWindowsModal } from './copy-windows-modal.tsx';
import { RoleWindowsPanel } from './role-windows-panel.tsx';

const yesNo = (value: boolean) => (value ? 'Oui' : 'Non');

/** "Liste des rôles" (spec §2.9), errors titled "Gestion des rôles" (spec §8). */
export const rolesList: ListConfig<Role> = {
  routes: ROLES_ROUTES,
  feature: 'roles',
  title: 'Liste des rôles',
  errorTitle: TITLES.roles,
  statusErrorTitle: TITLES.roles,
  // Spec §6: "roles list: show false"; the side panel shows the selected role instead.
  hiddenActions: ['show'],
  columns: [
    { label: 'Libellé', render: (row) => row.name },
    { label: 'Fixer ce rôle ?', render: (row) => yesNo(row.canOverwrite) },
    STATUS_COLUMN,
  ],
  searchValues: (row) => [row.name],
  rowLabel: (row) => row.name,
  form: {
    schema: roleSchema,
    fields: [
      { name: 'name', label: 'Libellé' },
      { name: 'canOverwrite', label: 'Fixer ce rôle ?', kind: 'checkbox' },
      { name: 'requires_two_factor', label: 'Exiger la double authentification', kind: 'checkbox' },
    ],
    createTitle: 'Enregistrer un rôle',
    editTitle: 'Modifier un rôle',
  },
  details: {
    fields: [
      { label: 'Libellé', value: (row) => row.name },
      { label: 'Fixer ce rôle ?', value: (row) => yesNo(row.canOverwrite) },
      { label: 'Exiger la double authentification', value: (row) => yesNo(row.requires_two_factor) },
      { label: 'Statut', value: (row) => <StatusBadge isActive={row.is_active} /> },
    ],
  },
};

/** /admin/roles: the generic list, "Copier" (the menu of one role to another) and the selected role's menu beside. */
export function RolesPage() {
  const [copying, setCopying] = useState<{ from?: Role }>();
  return (
    <ListPage
      config={rolesList}
      extraActions={[
        {
          label: 'Copier',
          action: 'add',
          icon: <IconCopy size={16} aria-hidden />,
          needsSelection: false,
          onClick: (row) => setCopying({ from: row }),
        },
      ]}
      aside={(role) => <RoleWindowsPanel role={role} />}
    >
      <CopyWindowsModal opened={copying !== undefined} from={copying?.from} onClose={() => setCopying(undefined)} />
    </ListPage>
  );
}
