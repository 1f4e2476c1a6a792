import type { CurrentUser } from '@reformes/domain';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { directoryLinks, roles, structures, userRoles, userSettings, users } from '../../db/schema/index.ts';
import { notFound } from '../../http/app-error.ts';

/** The user as the API shows it (spec §3 "User"), never with its password hash. */
/**
 * `sessionHasSecondFactor`: the caller's session got its second factor from the directory's `acr` (issue 42), so no
 * role demands one of it (`two_factor.required` false).
 */
export async function loadUserView(db: Db, userId: number, sessionHasSecondFactor = false): Promise<CurrentUser | undefined> {
  const [row] = await db
    .select({
      user: users,
      structure: { id: structures.id, designation: structures.designation, sigl: structures.sigl },
      setting: userSettings,
      link: { issuer: directoryLinks.issuer, subject: directoryLinks.subject, linked_at: directoryLinks.linked_at },
    })
    .from(users)
    .leftJoin(structures, eq(structures.id, users.structure_id))
    .leftJoin(userSettings, eq(userSettings.user_id, users.id))
    .leftJoin(directoryLinks, eq(directoryLinks.user_id, users.id))
    .where(eq(users.id, userId));
  if (!row) return undefined;
  const roleRows = await db
    .select({ id: roles.id, name: roles.name, requiresTwoFactor: roles.requires_two_factor, isActive: roles.is_active })
    .from(userRoles)
    .innerJoin(roles, eq(roles.id, userRoles.role_id))
    .where(eq(userRoles.user_id, userId))
    .orderBy(asc(userRoles.position), asc(roles.id));
  const { user } = row;
  return {
    id: user.id,
    name: `${user.firstname} ${user.lastname}`.trim(),
    lastname: user.lastname,
    firstname: user.firstname,
    address: user.address,
    email: user.email,
    phone: user.phone,
    structure_id: user.structure_id,
    structure: row.structure,
    roles: roleRows.map(({ id, name }) => ({ id, name })),
    is_active: user.is_active,
    is_signer: user.is_signer,
    must_change_password: user.must_change_password,
    user_setting: row.setting ? { id: row.setting.id, signature: row.setting.signature } : null,
    two_factor: {
      enabled: user.totp_enabled_at !== null,
      required: !sessionHasSecondFactor && roleRows.some((role) => role.isActive && role.requiresTwoFactor),
    },
    directory_link: row.link ? { ...row.link, linked_at: row.link.linked_at.toISOString() } : null,
    has_password: user.password_hash !== null,
  };
}

/** The user as the API shows it, when it must exist (the caller, a user just written): else a 404. */
export async function userViewOf(db: Db, userId: number, sessionHasSecondFactor = false): Promise<CurrentUser> {
  const user = await loadUserView(db, userId, sessionHasSecondFactor);
  if (!user) throw notFound();
  return user;
}

export type { CurrentUser };
