import { MESSAGES, type ResetPasswordInput, type UserInput } from '@reformes/domain';
import { and, count, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, structures, userRoles, users } from '../../db/schema/index.ts';
import { setActiveById } from '../../db/set-active.ts';
import { conflict, invalid, notFound } from '../../http/app-error.ts';
import type { Page } from '../../http/envelope.ts';
import { listOrPage, type PageQuery, sliced } from '../../http/pagination.ts';
import { pgErrorCode } from '../../http/pg-error.ts';
import { matchesSearch } from '../../http/search.ts';
import { enqueueMail } from '../../jobs/queue.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { queueAccountNotice } from '../auth/account-notices.ts';
import { TEMPORARY_PASSWORD_TTL_MS } from '../auth/auth.service.ts';
import { type CurrentUser, loadUserView } from '../auth/current-user.ts';
import { generateTemporaryPassword, hashPassword } from '../auth/password.ts';
import { assertAcceptablePassword } from '../auth/password-policy.ts';
import type { Sessions } from '../auth/sessions.ts';
import { forgetSignInFailures } from '../auth/throttles.ts';

/** Columns of the users' local and remote search (spec §3). */
const searchColumns = [users.lastname, users.firstname, users.email, users.phone, structures.designation, structures.sigl];

export interface UsersServiceOptions {
  db: Db;
  sessions: Sessions;
  publicUrl: string;
}

export function createUsersService({ db, sessions, publicUrl }: UsersServiceOptions) {
  async function listViews(where: SQL | undefined, limit?: number, offset?: number): Promise<CurrentUser[]> {
    const query = db
      .select({ id: users.id })
      .from(users)
      .leftJoin(structures, eq(structures.id, users.structure_id))
      .where(where)
      .orderBy(users.lastname, users.firstname, users.id)
      .$dynamic();
    const ids = await sliced(query, limit, offset);
    const views = await Promise.all(ids.map((row) => loadUserView(db, row.id)));
    return views.filter((view): view is CurrentUser => view !== undefined);
  }

  function listed(where: SQL | undefined, query: PageQuery) {
    return listOrPage(
      query,
      (limit, offset) => listViews(where, limit, offset),
      async () =>
        (await db.select({ total: count() }).from(users).leftJoin(structures, eq(structures.id, users.structure_id)).where(where))[0].total,
    );
  }

  async function view(id: number): Promise<CurrentUser> {
    const user = await loadUserView(db, id);
    if (!user) throw notFound();
    return user;
  }

  /** Role names -> ids, in the given order (the first one is the user's role). */
  async function roleIdsOf(names: string[]): Promise<number[]> {
    const unique = [...new Set(names)];
    const rows = await db.select({ id: roles.id, name: roles.name }).from(roles).where(inArray(roles.name, unique));
    const byName = new Map(rows.map((row) => [row.name, row.id]));
    const missing = unique.filter((name) => !byName.has(name));
    if (missing.length > 0) throw invalid({ roles: [`${MESSAGES.unknownRoles} : ${missing.join(', ')}`] });
    return unique.map((name) => byName.get(name) as number);
  }

  async function assertStructure(id: number) {
    const [row] = await db.select({ id: structures.id }).from(structures).where(eq(structures.id, id));
    if (!row) throw invalid({ structure_id: [MESSAGES.unknownStructure] });
  }

  async function assertEmailFree(email: string, exceptId?: number) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), exceptId ? ne(users.id, exceptId) : undefined));
    if (taken) throw conflict(MESSAGES.emailTaken);
  }

  function rethrowEmailTaken(error: unknown): never {
    if (pgErrorCode(error) === '23505') throw conflict(MESSAGES.emailTaken);
    throw error;
  }

  return {
    list: (query: PageQuery): Promise<CurrentUser[] | Page<CurrentUser>> => listed(undefined, query),

    search: (text: string, query: PageQuery) => listed(matchesSearch(searchColumns, text), query),

    show: view,

    /** The account gets a random temporary password, sent by mail, to change at the first sign-in. */
    async create(input: UserInput) {
      const { roles: roleNames, ...fields } = input;
      await assertStructure(fields.structure_id);
      await assertEmailFree(fields.email);
      const roleIds = await roleIdsOf(roleNames);
      const temporary = generateTemporaryPassword();
      const password_hash = await hashPassword(temporary);
      const id = await db
        .transaction(async (tx) => {
          const [created] = await tx
            .insert(users)
            .values({ ...fields, password_hash, must_change_password: true })
            .returning({ id: users.id });
          await tx.insert(userRoles).values(roleIds.map((role_id, position) => ({ user_id: created.id, role_id, position })));
          await recordAudit(tx, {
            action: 'user.create',
            target: { type: 'user', id: created.id, label: fields.email },
            details: { roles: roleNames },
          });
          // Sent once the account exists; the body (the temporary password) is erased from the queue once delivered.
          await enqueueMail(
            tx,
            {
              to: fields.email,
              subject: 'Réformes : votre compte a été créé',
              text:
                `Bonjour ${fields.firstname} ${fields.lastname},\n\n` +
                `Un compte Réformes vient d'être créé pour vous. Connectez-vous sur ${publicUrl}/login avec :\n\n` +
                `  email : ${fields.email}\n  mot de passe temporaire : ${temporary}\n\n` +
                'Vous choisirez votre propre mot de passe à la première connexion.\n',
            },
            { secretUntil: new Date(Date.now() + TEMPORARY_PASSWORD_TTL_MS) },
          );
          return created.id;
        })
        .catch(rethrowEmailTaken);
      return view(id);
    },

    async update(id: number, input: UserInput) {
      const { roles: roleNames, ...fields } = input;
      await view(id);
      await assertStructure(fields.structure_id);
      await assertEmailFree(fields.email, id);
      const roleIds = await roleIdsOf(roleNames);
      await db
        .transaction(async (tx) => {
          await tx
            .update(users)
            .set({ ...fields, updated_at: new Date() })
            .where(eq(users.id, id));
          await tx.delete(userRoles).where(eq(userRoles.user_id, id));
          await tx.insert(userRoles).values(roleIds.map((role_id, position) => ({ user_id: id, role_id, position })));
          await recordAudit(tx, {
            action: 'user.update',
            target: { type: 'user', id, label: fields.email },
            details: { roles: roleNames },
          });
        })
        .catch(rethrowEmailTaken);
      return view(id);
    },

    async remove(id: number, callerId: number) {
      if (id === callerId) throw conflict(MESSAGES.cannotChangeSelf);
      try {
        await db.transaction(async (tx) => {
          const [deleted] = await tx.delete(users).where(eq(users.id, id)).returning({ email: users.email });
          if (!deleted) throw notFound();
          await recordAudit(tx, { action: 'user.delete', target: { type: 'user', id, label: deleted.email } });
        });
      } catch (error) {
        const code = pgErrorCode(error);
        if (code === '23503' || code === '23001') throw conflict(MESSAGES.userHasRecords);
        throw error;
      }
    },

    /** Blocking an account ends its sessions at once (architecture §4). */
    async setActive(id: number, isActive: boolean, callerId: number) {
      if (id === callerId && !isActive) throw conflict(MESSAGES.cannotChangeSelf);
      await db.transaction(async (tx) => {
        if (!(await setActiveById(tx, users, id, isActive))) throw notFound();
        if (!isActive) await sessions.revokeAllOf(id, tx);
        await recordAudit(tx, { action: isActive ? 'user.unblock' : 'user.block', target: { type: 'user', id } });
      });
      return view(id);
    },

    /** An admin-set password is temporary too: the user chooses a new one at the next sign-in; the account is told. */
    async resetPassword(input: ResetPasswordInput) {
      const user = await view(input.id);
      if (user.email.toLowerCase() !== input.email.toLowerCase()) throw invalid({ email: ["L'email ne correspond pas à cet utilisateur"] });
      assertAcceptablePassword(input.password, user, 'password', { forOther: true });
      const password_hash = await hashPassword(input.password);
      const changedAt = new Date();
      await db.transaction(async (tx) => {
        await tx.update(users).set({ password_hash, must_change_password: true, updated_at: changedAt }).where(eq(users.id, input.id));
        await sessions.revokeAllOf(input.id, tx);
        await forgetSignInFailures(tx, user.email);
        await recordAudit(tx, { action: 'password.admin_reset', target: { type: 'user', id: input.id, label: user.email } });
        await queueAccountNotice(tx, 'password_admin_reset', user, changedAt);
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
