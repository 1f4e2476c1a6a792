import {
  envelopeShape,
  featureShape,
  idParamsSchema,
  limitedText,
  listShape,
  MESSAGES,
  messageShape,
  permissionAnswer,
  permissionSchema,
  permissionShape,
  permissionsAnswer,
  profileCopySchema,
  profileGrantSchema,
  profilesShape,
  roleProfileAnswer,
  rolesWindowsCopySchema,
  stateParamSchema,
  TEXT_LIMITS,
  windowsShape,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, plainList } from '../../http/envelope.ts';
import type { AccessService } from './access.service.ts';

const permissionsTags = ['Permissions'];
const profilesTags = ['Rôles & permissions'];
const can = (
  feature: 'permissions' | 'profiles' | 'roles' | 'features',
  action: 'list' | 'show' | 'add' | 'edit' | 'delete' | 'status',
) => ({
  access: { feature, action },
});

/** Spec §7 "Permissions, profiles, roles" (the roles CRUD itself comes from the reference factory). */
export const accessRoutes: FastifyPluginAsyncZod<{ access: AccessService }> = async (app, { access }) => {
  app.get(
    '/features',
    {
      config: can('features', 'list'),
      schema: { tags: permissionsTags, summary: 'Catalogue des fonctionnalités', response: { 200: listShape(featureShape) } },
    },
    async () => plainList(await access.listFeatures()),
  );

  app.get(
    '/permissions',
    {
      config: can('permissions', 'list'),
      schema: { tags: permissionsTags, summary: 'Liste des permissions', response: { 200: listShape(permissionShape) } },
    },
    async () => plainList(await access.listPermissions()),
  );

  app.get(
    '/permissions/:id',
    { config: can('permissions', 'show'), schema: { tags: permissionsTags, params: idParamsSchema, response: { 200: permissionAnswer } } },
    async (request) => ok(await access.permissionView(request.params.id), MESSAGES.found),
  );

  app.post(
    '/permissions',
    {
      config: can('permissions', 'add'),
      schema: { tags: permissionsTags, body: permissionSchema, response: { 201: permissionsAnswer } },
    },
    async (request, reply) => {
      reply.status(201);
      return ok(await access.createPermissions(request.body), MESSAGES.permissionsCreated);
    },
  );

  // Spec §7: updates arrive as POST with a method field "patch"; PUT is accepted too.
  const updateBody = permissionSchema.extend({ _method: limitedText(TEXT_LIMITS.label).optional() });
  for (const method of ['POST', 'PUT'] as const) {
    app.route({
      method,
      url: '/permissions/:id',
      config: can('permissions', 'edit'),
      schema: { tags: permissionsTags, params: idParamsSchema, body: updateBody, response: { 200: permissionAnswer } },
      handler: async (request) => ok(await access.updatePermission(request.params.id, request.body), MESSAGES.updated),
    });
  }

  app.delete(
    '/permissions/:id',
    { config: can('permissions', 'delete'), schema: { tags: permissionsTags, params: idParamsSchema, response: { 200: messageShape } } },
    async (request) => {
      await access.deletePermission(request.params.id);
      return { message: MESSAGES.deleted };
    },
  );

  app.get(
    '/permissions/:id/state/:state',
    {
      config: can('permissions', 'status'),
      schema: { tags: permissionsTags, params: stateParamSchema, response: { 200: permissionAnswer } },
    },
    async (request) => {
      const isActive = request.params.state === '1';
      return ok(await access.setPermissionActive(request.params.id, isActive), isActive ? MESSAGES.activated : MESSAGES.deactivated);
    },
  );

  app.get(
    '/profiles',
    {
      config: can('profiles', 'list'),
      schema: { tags: profilesTags, summary: 'Rôles et leurs droits', response: { 200: envelopeShape(profilesShape) } },
    },
    async () => ok(await access.profiles(), MESSAGES.listed),
  );

  app.post(
    '/profiles',
    {
      config: can('profiles', 'add'),
      schema: {
        tags: profilesTags,
        summary: 'Ajouter des droits à un rôle',
        body: profileGrantSchema,
        response: { 200: roleProfileAnswer },
      },
    },
    async (request) => ok(await access.grant(request.body.id, request.body.permissions), MESSAGES.rightsGranted),
  );

  app.post(
    '/profiles-copy',
    {
      config: can('profiles', 'add'),
      schema: {
        tags: profilesTags,
        summary: 'Copier les droits vers un rôle',
        body: profileCopySchema,
        response: { 200: roleProfileAnswer },
      },
    },
    async (request) => ok(await access.copyRights(request.body.id, request.body.role_id), MESSAGES.rightsCopied),
  );

  app.get(
    '/profiles/:id',
    {
      config: can('profiles', 'show'),
      schema: { tags: profilesTags, summary: "Droits d'un rôle", params: idParamsSchema, response: { 200: roleProfileAnswer } },
    },
    async (request) => ok(await access.profileOfRole(request.params.id), MESSAGES.found),
  );

  // `id` names the role-permission row ("profil") to revoke.
  for (const method of ['PATCH', 'DELETE'] as const) {
    app.route({
      method,
      url: '/profiles/:id',
      config: can('profiles', 'delete'),
      schema: { tags: profilesTags, summary: 'Retirer un droit', params: idParamsSchema, response: { 200: messageShape } },
      handler: async (request) => {
        await access.revoke(request.params.id);
        return { message: MESSAGES.rightRevoked };
      },
    });
  }

  app.get(
    '/profiles/:id/status',
    {
      config: can('profiles', 'status'),
      schema: { tags: profilesTags, summary: 'Basculer un droit', params: idParamsSchema, response: { 200: roleProfileAnswer } },
    },
    async (request) => ok(await access.toggleProfile(request.params.id), MESSAGES.updated),
  );

  app.get(
    '/profiles/:id/state/:state',
    { config: can('profiles', 'status'), schema: { tags: profilesTags, params: stateParamSchema, response: { 200: roleProfileAnswer } } },
    async (request) => {
      const isActive = request.params.state === '1';
      return ok(await access.setProfileActive(request.params.id, isActive), isActive ? MESSAGES.activated : MESSAGES.deactivated);
    },
  );

  app.post(
    '/roles-windows-copy',
    {
      config: can('roles', 'add'),
      schema: {
        tags: ['Rôles'],
        summary: "Copier les menus d'un rôle",
        body: rolesWindowsCopySchema,
        response: { 200: envelopeShape(windowsShape) },
      },
    },
    async (request) => ok(await access.copyWindows(request.body.old_id, request.body.new_id), MESSAGES.windowsCopied),
  );
};
