import { type Grant, MESSAGES, permissionName, type RouteAccess, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
import { recordAudit } from '../modules/audit/audit.service.ts';
import { createRateLimits } from '../modules/auth/throttles.ts';
import { AppError, forbidden, unauthenticated } from './app-error.ts';

/** What a route demands: the domain's route table declares it (packages/domain/src/routes/route.ts). */
export type Access = RouteAccess;
export type { Grant };

export interface AuthContext {
  userId: number;
  sessionId: string;
  structureId: number;
  role: string | undefined;
  permissions: Set<string>;
}

export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

interface TokenPayload {
  sub: number;
  sid: string;
}

export const API_BASE = '/api/v1';

/** The names ("reformes.list") of the active rights held through the user's active roles, as an SQL array. */
export function permissionNamesOf(userId: SQL | number): SQL {
  return sql`array(select distinct p.name from user_roles ur
    join roles r on r.id = ur.role_id and r.is_active
    join role_permissions rp on rp.role_id = r.id and rp.is_active
    join permissions p on p.id = rp.permission_id and p.is_active
    where ur.user_id = ${userId} order by p.name)`;
}

/** One query: the user's state, whether the session is still alive, and the rights of its active roles. */
async function loadAuthContext(db: Db, payload: TokenPayload) {
  const result = await db.execute<{
    is_active: boolean;
    must_change_password: boolean;
    structure_id: number;
    role: string | null;
    session_alive: boolean;
    permissions: string[];
    must_enrol: boolean;
  }>(sql`
    select u.is_active, u.must_change_password, u.structure_id,
      (u.totp_enabled_at is null and exists (select 1 from user_roles ur join roles r on r.id = ur.role_id
        and r.is_active and r.requires_two_factor where ur.user_id = u.id)) as must_enrol,
      (select r.name from user_roles ur join roles r on r.id = ur.role_id
        where ur.user_id = u.id order by ur.position, r.id limit 1) as role,
      exists (select 1 from refresh_tokens t where t.family_id = ${payload.sid}
        and t.user_id = u.id and t.revoked_at is null and t.expires_at > now()) as session_alive,
      ${permissionNamesOf(sql`u.id`)} as permissions
    from users u where u.id = ${payload.sub}`);
  return result.rows[0];
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

async function authenticate(
  app: FastifyInstance,
  db: Db,
  request: FastifyRequest,
): Promise<{ auth: AuthContext; mustChange: boolean; mustEnrol: boolean }> {
  const token = bearerOf(request);
  if (!token) throw unauthenticated();
  let payload: TokenPayload;
  try {
    payload = app.jwt.verify<TokenPayload>(token);
  } catch {
    throw unauthenticated();
  }
  const row = await loadAuthContext(db, payload);
  // A blocked account or a revoked session loses access at once, whatever the token's expiry.
  if (!row?.is_active || !row.session_alive) throw unauthenticated();
  return {
    auth: {
      userId: payload.sub,
      sessionId: payload.sid,
      structureId: row.structure_id,
      role: row.role ?? undefined,
      permissions: new Set(row.permissions),
    },
    mustChange: row.must_change_password,
    mustEnrol: row.must_enrol,
  };
}

/**
 * Writes a route refused to a signed-in caller into the audit log, at most once a minute per account and route (the
 * count is kept in the database, for every instance), so that a client looping on a forbidden route writes one entry a
 * minute, not thousands. The 403 goes out whatever happens to the entry.
 */
function auditRefusals(db: Db, log: FastifyInstance['log']) {
  const rateLimits = createRateLimits(db);
  return async (request: FastifyRequest, auth: AuthContext) => {
    const [method, route] = [request.method, request.routeOptions.url ?? request.url];
    try {
      if ((await rateLimits.hit(`audit-denied:${auth.userId}:${method} ${route}`, 1, 60)) !== undefined) return;
      await recordAudit(db, {
        action: 'access.denied',
        result: 'failure',
        actor: { id: auth.userId },
        ip: request.ip,
        details: { method, route },
      });
    } catch (error) {
      log.error({ err: error }, "refus d'accès non journalisé");
    }
  };
}

/** The authorisation guard: refuses to register an undeclared API route, and checks each request. */
export const authorisationGuard = fp<{ db: Db }>(async (app, { db }) => {
  const recordRefusal = auditRefusals(db, app.log);
  app.decorateRequest('auth', null);
  app.decorate('routeTable', [] as RouteEntry[]);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_BASE)) return;
    const access = route.config?.access;
    if (!access) throw new Error(`La route ${route.method} ${route.url} ne déclare pas son droit d'accès (config.access).`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.routeTable.push({ method, url: route.url, access });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const { auth, mustChange, mustEnrol } = await authenticate(app, db, request);
    request.auth = auth;
    if (access === 'first-password') return;
    if (mustChange) throw new AppError(403, MESSAGES.mustChangePassword);
    if (access === 'two-factor-setup') return;
    if (mustEnrol) throw new AppError(403, TWO_FACTOR_MESSAGES.required);
    if (access === 'signed-in') return;
    const grants = 'anyOf' in access ? access.anyOf : [access];
    if (!grants.some((grant) => holds(auth, grant))) {
      await recordRefusal(request, auth);
      throw forbidden();
    }
  });
});

export function holds(auth: AuthContext, grant: Grant): boolean {
  return auth.permissions.has(permissionName(grant.feature, grant.action));
}

/** The caller of a route that is not public (the guard has already refused anonymous calls). */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}
