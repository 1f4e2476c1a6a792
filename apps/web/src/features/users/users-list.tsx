import { DIRECTORY_MESSAGES, ROLES_ROUTES, roleOf, STRUCTURES_ROUTES, TITLES, USERS_ROUTES, userSchema } from '@reformes/domain';
import { type ListConfig, optionsOf } from '../../components/list-page/list-config.ts';
import { STATUS_COLUMN } from '../../components/status-badge.tsx';
import type { CurrentUser } from '../../session/session.ts';
import { UserDirectoryLink } from './user-directory-link.tsx';

/** A listed account: the same view of a user as the signed-in one (architecture §3). */
export type UserRow = CurrentUser;

export function identityOf(user: UserRow): string {
  return user.name || [user.lastname, user.firstname].filter(Boolean).join(' ') || user.email;
}

/** "Liste des utilisateurs" (spec §2.8), every error titled "Gestion des utilisateurs" (spec §8). */
export const usersList: ListConfig<UserRow> = {
  routes: USERS_ROUTES,
  feature: 'users',
  title: 'Liste des utilisateurs',
  errorTitle: TITLES.users,
  columns: [
    { label: 'Identité', render: identityOf },
    { label: 'Email', render: (row) => row.email },
    { label: 'Rôles', render: (row) => row.roles.map((role) => role.name).join(', ') },
    STATUS_COLUMN,
  ],
  searchValues: (row) => [row.lastname, row.firstname, row.name, row.email, row.phone, row.structure?.designation, row.structure?.sigl],
  rowLabel: identityOf,
  form: {
    schema: userSchema,
    fields: [
      { name: 'lastname', label: 'Nom' },
      { name: 'firstname', label: 'Prénoms' },
      { name: 'address', label: 'Adresse' },
      { name: 'email', label: 'Email', kind: 'email' },
      { name: 'phone', label: 'Contact', kind: 'tel' },
      {
        name: 'structure_id',
        label: 'Structure',
        kind: 'select',
        options: optionsOf(STRUCTURES_ROUTES, (structure) => ({
          value: String(structure.id),
          label: `${structure.designation} (${structure.sigl})`,
        })),
      },
      {
        name: 'roles',
        label: 'Rôles',
        kind: 'multiselect',
        options: optionsOf(ROLES_ROUTES, (role) => ({ value: role.name, label: role.name })),
        initialValue: (row) => row.roles.map((role) => role.name),
      },
      { name: 'is_signer', label: 'Signataire', kind: 'checkbox' },
    ],
    createTitle: 'Créer un compte utilisateur',
    editTitle: 'Modifier un utilisateur',
  },
  details: {
    fields: [
      { label: 'Nom', value: (row) => row.lastname },
      { label: 'Prénoms', value: (row) => row.firstname },
      { label: 'Email', value: (row) => row.email },
      { label: 'Contact', value: (row) => row.phone },
      { label: 'Rôle', value: (row) => roleOf(row) },
      { label: DIRECTORY_MESSAGES.sectionTitle, value: (row) => <UserDirectoryLink user={row} /> },
    ],
  },
};
