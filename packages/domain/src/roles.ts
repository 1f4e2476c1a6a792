/** The five built-in roles of spec §6, in the order the admin screens list them. */
export const ROLE_NAMES = ['admin', 'saisie central', 'saisie', 'validation', 'publication'] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export const GUARD_NAME = 'api';

export function isRoleName(value: unknown): value is RoleName {
  return typeof value === 'string' && (ROLE_NAMES as readonly string[]).includes(value);
}

/** The role of a user is the name of its first role (spec §6); undefined when it has none. */
export function roleOf(user: { roles?: ReadonlyArray<{ name: string }> | null } | null | undefined): string | undefined {
  return user?.roles?.[0]?.name;
}

/** Roles that see every structure; the others see their own structure only (architecture §4). */
export function seesAllStructures(role: string | undefined): boolean {
  return role === 'admin' || role === 'saisie central' || role === 'publication';
}

/**
 * Who chooses the structure of a reform it records (spec §5): saisie central, for which the field is
 * required; every other role records reforms for its own structure. `choosesStructure('saisie central')` is true.
 */
export function choosesStructure(role: string | undefined): boolean {
  return role === 'saisie central';
}

/**
 * The administrator's own reach, beyond the structure scope: every user's signature, and the dashboard as any
 * role sees it. `seesAllStructures` is the scope of reforms; this is admin alone.
 */
export function isAdminRole(role: string | undefined): boolean {
  return role === 'admin';
}
