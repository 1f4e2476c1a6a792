import { MESSAGES, ACCESS_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleted, ok, plainList, toggled } from '../../http/envelope.ts';
import { routeTable } from '../../http/route-table.ts';
import type { AccessService } from './access.service.ts';

/** The handlers of ACCESS_ROUTES (packages/domain/src/routes/access.ts); the roles CRUD comes from the reference factory. */
export const accessRoutes: FastifyPluginAsyncZod<{ access: AccessService }> = async (app, { access }) => {
  const on = routeTable(app);
  on(ROUTES.features, async () => plainList(await access.listFeatures()));
  on(ROUTES.permissions, async () => plainList(await access.listPermissions()));
  on(ROUTES.permission, async (request) => ok(await access.permissionView(request.params.id), MESSAGES.found));
  on(ROUTES.createPermissions, async (request) => ok(await access.createPermissions(request.body), MESSAGES.permissionsCreated));
  for (const spec of [ROUTES.updatePermission, ROUTES.updatePermissionPut]) {
    on(spec, async (request) => ok(await access.updatePermission(request.params.id, request.body), MESSAGES.updated));
  }
  on(ROUTES.deletePermission, (request) => deleted(access.deletePermission(request.params.id)));
  on(ROUTES.setPermissionState, (request) =>
    toggled(request.params.state, (isActive) => access.setPermissionActive(request.params.id, isActive)),
  );

  on(ROUTES.profiles, async () => ok(await access.profiles(), MESSAGES.listed));
  on(ROUTES.grant, async (request) => ok(await access.grant(request.body.id, request.body.permissions), MESSAGES.rightsGranted));
  on(ROUTES.copyRights, async (request) => ok(await access.copyRights(request.body.id, request.body.role_id), MESSAGES.rightsCopied));
  on(ROUTES.profileOfRole, async (request) => ok(await access.profileOfRole(request.params.id), MESSAGES.found));
  for (const spec of [ROUTES.revokePatch, ROUTES.revoke]) {
    on(spec, async (request) => {
      await access.revoke(request.params.id);
      return { message: MESSAGES.rightRevoked };
    });
  }
  on(ROUTES.toggleProfile, async (request) => ok(await access.toggleProfile(request.params.id), MESSAGES.updated));
  on(ROUTES.setProfileState, (request) =>
    toggled(request.params.state, (isActive) => access.setProfileActive(request.params.id, isActive)),
  );

  on(ROUTES.copyWindows, async (request) => ok(await access.copyWindows(request.body.old_id, request.body.new_id), MESSAGES.windowsCopied));
};
