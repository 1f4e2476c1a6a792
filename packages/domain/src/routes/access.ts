import { permissionSchema, permissionUpdateSchema, profileCopySchema, profileGrantSchema, rolesWindowsCopySchema } from '../access.ts';
import type { Action } from '../permissions.ts';
import { idParamsSchema, stateParamSchema } from '../reference.ts';
import {
  featureShape,
  permissionAnswer,
  permissionShape,
  permissionsAnswer,
  profilesShape,
  roleProfileAnswer,
  windowsShape,
} from '../shapes/access.ts';
import { envelopeShape, listShape, messageShape } from '../shapes/envelope.ts';
import { routesOf } from './route.ts';

const can = <const F extends 'permissions' | 'profiles' | 'roles' | 'features', A extends Action>(feature: F, action: A) =>
  ({ feature, action }) as const;

/** Spec §7 "Permissions, profiles, roles" (the roles CRUD itself is in reference.ts). */
export const ACCESS_ROUTES = {
  ...routesOf(['Permissions'], {
    features: {
      method: 'GET',
      path: '/features',
      access: can('features', 'list'),
      summary: 'Catalogue des fonctionnalités',
      answer: listShape(featureShape),
    },
    permissions: {
      method: 'GET',
      path: '/permissions',
      access: can('permissions', 'list'),
      summary: 'Liste des permissions',
      answer: listShape(permissionShape),
    },
    permission: {
      method: 'GET',
      path: '/permissions/:id',
      access: can('permissions', 'show'),
      summary: "Détail d'une permission",
      params: idParamsSchema,
      answer: permissionAnswer,
    },
    createPermissions: {
      method: 'POST',
      path: '/permissions',
      status: 201,
      access: can('permissions', 'add'),
      summary: 'Création de permissions (une par action)',
      body: permissionSchema,
      answer: permissionsAnswer,
    },
    // Spec §7: updates arrive as POST with a method field "patch"; PUT is accepted too.
    updatePermission: {
      method: 'POST',
      path: '/permissions/:id',
      access: can('permissions', 'edit'),
      summary: "Modification d'une permission",
      params: idParamsSchema,
      body: permissionUpdateSchema,
      answer: permissionAnswer,
    },
    updatePermissionPut: {
      method: 'PUT',
      path: '/permissions/:id',
      access: can('permissions', 'edit'),
      summary: "Modification d'une permission",
      params: idParamsSchema,
      body: permissionUpdateSchema,
      answer: permissionAnswer,
    },
    deletePermission: {
      method: 'DELETE',
      path: '/permissions/:id',
      access: can('permissions', 'delete'),
      summary: "Suppression d'une permission",
      params: idParamsSchema,
      answer: messageShape,
    },
    setPermissionState: {
      method: 'GET',
      path: '/permissions/:id/state/:state',
      access: can('permissions', 'status'),
      summary: 'Activer / désactiver une permission',
      params: stateParamSchema,
      answer: permissionAnswer,
    },
  }),
  ...routesOf(['Rôles & permissions'], {
    profiles: {
      method: 'GET',
      path: '/profiles',
      access: can('profiles', 'list'),
      summary: 'Rôles et leurs droits',
      answer: envelopeShape(profilesShape),
    },
    grant: {
      method: 'POST',
      path: '/profiles',
      access: can('profiles', 'add'),
      summary: 'Ajouter des droits à un rôle',
      body: profileGrantSchema,
      answer: roleProfileAnswer,
    },
    copyRights: {
      method: 'POST',
      path: '/profiles-copy',
      access: can('profiles', 'add'),
      summary: 'Copier les droits vers un rôle',
      body: profileCopySchema,
      answer: roleProfileAnswer,
    },
    profileOfRole: {
      method: 'GET',
      path: '/profiles/:id',
      access: can('profiles', 'show'),
      summary: "Droits d'un rôle",
      params: idParamsSchema,
      answer: roleProfileAnswer,
    },
    // `id` names the role-permission row ("profil") to revoke; PATCH and DELETE both do.
    revoke: {
      method: 'DELETE',
      path: '/profiles/:id',
      access: can('profiles', 'delete'),
      summary: 'Retirer un droit',
      params: idParamsSchema,
      answer: messageShape,
    },
    revokePatch: {
      method: 'PATCH',
      path: '/profiles/:id',
      access: can('profiles', 'delete'),
      summary: 'Retirer un droit',
      params: idParamsSchema,
      answer: messageShape,
    },
    toggleProfile: {
      method: 'GET',
      path: '/profiles/:id/status',
      access: can('profiles', 'status'),
      summary: 'Basculer un droit',
      params: idParamsSchema,
      answer: roleProfileAnswer,
    },
    setProfileState: {
      method: 'GET',
      path: '/profiles/:id/state/:state',
      access: can('profiles', 'status'),
      summary: 'Activer / désactiver un droit',
      params: stateParamSchema,
      answer: roleProfileAnswer,
    },
  }),
  ...routesOf(['Rôles'], {
    copyWindows: {
      method: 'POST',
      path: '/roles-windows-copy',
      access: can('roles', 'add'),
      summary: "Copier les menus d'un rôle",
      body: rolesWindowsCopySchema,
      answer: envelopeShape(windowsShape),
    },
  }),
};
