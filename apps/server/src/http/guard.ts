import { type Grant, MESSAGES, permissionName, type RouteAccess, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client.ts';
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
  /** Its `schema.response` as registered: app-routes.test.ts checks it is its domain entry's `answer` (issue 41). */
  answers?: unknown;
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

/** What the guard loads for a user and a session, as `loadAuthContext` returns it. */
type AuthRow = {
  is_active: boolean;
  must_change_password: boolean;
  structure_id: number;
  role: string | null;
  /** When the session's family expires, if it is still alive (not revoked, not expired). */
  session_expires_at: Date | null;
  permissions: string[];
  must_enrol: boolean;
  /** The user's auth version (migration 0014): moves with anything above. */
  version: string;
};

/**
 * One query: the user's state, the session's expiry while it is alive, the rights of its active roles, and the
 * user's auth version, all from one snapshot.
 */
async function loadAuthContext(db: Db, payload: TokenPayload): Promise<AuthRow | undefined> {
  const result = await db.execute<AuthRow>(sql`
    select u.is_active, u.must_change_password, u.structure_id,
      (u.totp_enabled_at is null and exists (select 1 from user_roles ur join roles r on r.id = ur.role_id
        and r.is_active and r.requires_two_factor where ur.user_id = u.id)
        -- A directory session whose acr is one of OIDC_ACR_VALUES has its second factor (issue 42).
        and not exists (select 1 from directory_sessions d where d.family_id = ${payload.sid} and d.second_factor)) as must_enrol,
      (select r.name from user_roles ur join roles r on r.id = ur.role_id
        where ur.user_id = u.id order by ur.position, r.id limit 1) as role,
      (select max(t.expires_at) from refresh_tokens t where t.family_id = ${payload.sid}
        and t.user_id = u.id and t.revoked_at is null having max(t.expires_at) > now()) as session_expires_at,
      ${permissionNamesOf(sql`u.id`)} as permissions,
      coalesce((select a.version from auth_versions a where a.user_id = u.id), 0)::text as version
    from users u where u.id = ${payload.sub}`);
  return result.rows[0];
}

/** The user's auth version alone: one primary-key lookup (undefined when the user is gone). */
async function authVersionOf(db: Db, userId: number): Promise<string | undefined> {
  const result = await db.execute<{ version: string }>(sql`
    select coalesce(a.version, 0)::text as version from users u left join auth_versions a on a.user_id = u.id where u.id = ${userId}`);
  return result.rows[0]?.version;
}

/** Sessions whose loaded state is kept (the oldest forgotten first). */
const SESSIONS_KEPT = 2_000;

/**
 * What the guard loaded per session, kept while the user's auth version has not moved. Every change that could
 * alter it (account, roles, rights, a revoked session) moves the version in the writing transaction (triggers of
 * migration 0014), so checking the version on each request keeps a block or a revoked right effective at the next
 * request, on every instance, for the price of one primary-key lookup instead of the rights' joins. The version and
 * what it guards are read in one snapshot, so a kept state is never older than its version. Users who share the
 * same rights share one set of names.
 */
function createAuthContexts(db: Db) {
  const kept = new Map<string, { row: AuthRow; expiresAt: number; permissions: Set<string> }>();
  const permissionSets = new Map<string, Set<string>>();
  const setOf = (names: string[]) => {
    const key = names.join(',');
    let set = permissionSets.get(key);
    if (!set) {
      if (permissionSets.size >= SESSIONS_KEPT) permissionSets.clear();
      set = new Set(names);
      permissionSets.set(key, set);
    }
    return set;
  };

  return async function contextOf(payload: TokenPayload) {
    const key = `${payload.sub}:${payload.sid}`;
    const hit = kept.get(key);
    if (hit && hit.expiresAt > Date.now() && (await authVersionOf(db, payload.sub)) === hit.row.version) return hit;
    kept.delete(key);
    const row = await loadAuthContext(db, payload);
    if (!row?.is_active || !row.session_expires_at) return undefined;
    const entry = { row, expiresAt: new Date(row.session_expires_at).getTime(), permissions: setOf(row.permissions) };
    kept.set(key, entry);
    if (kept.size > SESSIONS_KEPT) kept.delete(kept.keys().next().value as string);
    return entry;
  };
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

async function authenticate(
  app: FastifyInstance,
  contextOf: ReturnType<typeof createAuthContexts>,
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
  // A blocked account or a revoked session loses access at once, whatever the token's expiry.
  const context = await contextOf(payload);
  if (!context) throw unauthenticated();
  const { row, permissions } = context;
  return {
    auth: {
      userId: payload.sub,
      sessionId: payload.sid,
      structureId: row.structure_id,
      role: row.role ?? undefined,
      permissions,
    },
    mustChange: row.must_change_password,
    mustEnrol: row.must_enrol,
  };
}

export interface GuardOptions {
  db: Db;
  /** Called before a signed-in caller's 403 (app.ts hands modules/audit's `createRefusalAudit`): the guard knows no module. */
  recordRefusal: (request: FastifyRequest, auth: AuthContext) => Promise<void>;
}

/** The authorisation guard: refuses to register an undeclared API route, and checks each request. */
export const authorisationGuard = fp<GuardOptions>(async (app, { db, recordRefusal }) => {
  const contextOf = createAuthContexts(db);
  app.decorateRequest('auth', null);
  app.decorate('routeTable', [] as RouteEntry[]);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_BASE)) return;
    const access = route.config?.access;
    if (!access) throw new Error(`La route ${route.method} ${route.url} ne déclare pas son droit d'accès (config.access).`);
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.routeTable.push({ method, url: route.url, access, answers: route.schema?.response });
    }
  });

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const { auth, mustChange, mustEnrol } = await authenticate(app, contextOf, request);
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
