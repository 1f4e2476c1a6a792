import { ACCESS_ROUTES, ACTION_LABELS, ACTIONS, MESSAGES, permissionSchema, TITLES } from '@reformes/domain';
import { type ListConfig, optionsOf } from '../../components/list-page/list-config.ts';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { STATUS_COLUMN } from '../../components/status-badge.tsx';
import { type Permission, rightLabel } from './access-api.ts';

/** A permission is edited one action at a time (`POST permissions/{id}` takes one pair). */
const permissionEditSchema = permissionSchema.extend({
  actions: permissionSchema.shape.actions.max(1, { error: MESSAGES.permissionSingleAction }),
});

/** "Liste des permissions" (spec §2.9), errors titled "Gestion des permissions" (spec §8). */
export const permissionsList: ListConfig<Permission> = {
  routes: {
    list: ACCESS_ROUTES.permissions,
    create: ACCESS_ROUTES.createPermissions,
    update: ACCESS_ROUTES.updatePermissionPut,
    remove: ACCESS_ROUTES.deletePermission,
    setState: ACCESS_ROUTES.setPermissionState,
  },
  feature: 'permissions',
  title: 'Liste des permissions',
  errorTitle: TITLES.permissions,
  statusErrorTitle: TITLES.permissions,
  // `GET permissions` answers the whole list: it is searched and paged here.
  wholeList: true,
  columns: [
    { label: 'Fonctionnalité', render: (row) => row.feature_tag },
    { label: 'Action', render: (row) => ACTION_LABELS[row.action] ?? row.action },
    { label: 'Nom', render: (row) => row.name },
    STATUS_COLUMN,
  ],
  rowLabel: rightLabel,
  form: {
    schema: permissionSchema,
    editSchema: permissionEditSchema,
    fields: [
      {
        name: 'feature_id',
        label: 'Fonctionnalité système',
        kind: 'select',
        options: optionsOf({ list: ACCESS_ROUTES.features }, (feature) => ({ value: String(feature.id), label: feature.tag })),
      },
      {
        name: 'actions',
        label: 'Actions',
        kind: 'checkboxgroup',
        choices: ACTIONS.map((action) => ({ value: action, label: ACTION_LABELS[action] })),
        initialValue: (row) => [row.action],
      },
    ],
    createTitle: 'Enregistrer une permission',
    editTitle: 'Modifier une permission',
  },
};

/** /admin/permissions */
export function PermissionsPage() {
  return <ListPage config={permissionsList} />;
}
