import type { RoleName } from './roles.ts';

export interface MenuEntry {
  /** A group heading that holds children rather than a link. */
  name: string;
  route?: string;
  children?: MenuEntry[];
}

const dashboard: MenuEntry = { name: 'Tableau de bord', route: '/admin/dashboard' };
const newReforme: MenuEntry = { name: 'Nouvelle', route: '/admin/create-reforme' };
const listReformes: MenuEntry = { name: 'Liste', route: '/admin/list-reformes' };
const followReformes: MenuEntry = { name: 'Suivi des réformes', route: '/admin/follow-reformes' };
const myRecords: MenuEntry = { name: 'Mes enregistrements', route: '/admin/mylist-reformes' };
const treatment = (name: string): MenuEntry => ({ name, route: '/admin/treatment-reformes' });

const configurations = (withBackups: boolean): MenuEntry => ({
  name: 'Configurations',
  children: [
    { name: 'Secteurs', route: '/admin/sectors' },
    { name: 'Structures', route: '/admin/structures' },
    { name: 'Natures', route: '/admin/natures' },
    { name: 'Couvertures', route: '/admin/covers' },
    // Spec §2.1 lists the entities screen but §2.3 gives it no entry; without one nobody could reach it.
    { name: 'Entités administratives', route: '/admin/entities' },
    ...(withBackups ? [{ name: 'Sauvegarde', route: '/admin/backups' }] : []),
  ],
});

/** The side menu of each role, as spec §2.3 lists it (plus the entities and the Habilitations group, see above). */
export const MENUS: Record<RoleName, MenuEntry[]> = {
  admin: [
    dashboard,
    { name: 'Comptes utilisateurs', route: '/admin/users' },
    // Spec §2.1 lists roles, permissions and profils but §2.3 gives them no entry; without one nobody could reach them.
    {
      name: 'Habilitations',
      children: [
        { name: 'Rôles', route: '/admin/roles' },
        { name: 'Permissions', route: '/admin/permissions' },
        { name: 'Rôles & permissions', route: '/admin/profils' },
        // Not in spec §2.3: the security audit log (docs/decisions.md, "Journal d'audit").
        { name: "Journal d'audit", route: '/admin/audit' },
        // Not in spec §2.3: failed mails and jobs (issue 31, docs/decisions.md "Durable jobs").
        { name: 'Courriels et tâches', route: '/admin/jobs' },
        // Not in spec §2.3: the reminders by mail, seen and sent now with the same right (issue 32).
        { name: 'Rappels', route: '/admin/reminders' },
      ],
    },
    { name: 'Réformes', children: [listReformes] },
    configurations(true),
  ],
  'saisie central': [dashboard, { name: 'Réformes', children: [newReforme, listReformes, followReformes] }, configurations(false)],
  saisie: [
    dashboard,
    {
      name: 'Réformes',
      children: [
        newReforme,
        treatment('A transmettre'),
        myRecords,
        { name: 'Données de suivi', route: '/admin/follow-reforme-create' },
        followReformes,
      ],
    },
  ],
  validation: [dashboard, { name: 'Réformes', children: [newReforme, treatment('A valider'), myRecords, followReformes] }],
  publication: [dashboard, { name: 'Réformes', children: [newReforme, treatment('A publier'), myRecords, listReformes, followReformes] }],
};

/** Any role outside the five gets no menu (spec §2.3). */
export function menuOf(role: string | undefined): MenuEntry[] {
  // Own keys only: a role named "constructor" or "toString" must not reach Object.prototype.
  return role && Object.hasOwn(MENUS, role) ? MENUS[role as RoleName] : [];
}
