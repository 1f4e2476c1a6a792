import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { DIRECTORY_MESSAGES, type DirectoryOutcome, MESSAGES, TEXT_LIMITS } from '@reformes/domain';
import { and, eq, lt, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import type { Db } from '../../db/client.ts';
import { directoryDances, directoryLinks, directorySessions, roles, userRoles, users } from '../../db/schema/index.ts';
import { AppError, conflict, notFound, serviceUnavailable } from '../../http/app-error.ts';
import { pgErrorCode } from '../../http/pg-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { userViewOf } from '../auth/current-user.ts';
import { hashToken, type Sessions } from '../auth/sessions.ts';
import type { TwoFactor } from '../auth/two-factor.ts';
import type { DirectoryClient } from './directory-client.ts';
import { checkLogoutToken } from './logout-token.ts';

/** A dance older than this is refused, and its row deleted by the next dance that starts. */
const DANCE_TTL_MS = 10 * 60 * 1000;

type Purpose = 'sign_in' | 'link';
type Refusal = Extract<DirectoryOutcome, { kind: 'refused' }>;

/** What the provider says of the person, once its tokens are checked. */
export interface DirectoryIdentity {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  firstname?: string;
  lastname?: string;
  acr?: string;
  sid?: string;
}

/** A refusal of the dance: what the person reads, and what the audit journal keeps. */
class DanceRefused extends Error {
  constructor(
    readonly outcome: Refusal,
    readonly reason: string,
    readonly userId?: number,
  ) {
    super(reason);
  }
}

const refusal = (message: string, reason: string, backTo: Refusal['back_to'], userId?: number) =>
  new DanceRefused({ kind: 'refused', message, back_to: backTo }, reason, userId);

const sameText = (a: string, b: string) => {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right);
};

/**
 * A claim as one line of text, or nothing: the provider's answer is input like any other, so a value longer than the
 * field it lands in (TEXT_LIMITS) is not taken.
 */
const textClaim = (value: unknown, max: number = TEXT_LIMITS.label) => {
  const text = typeof value === 'string' ? value.trim() : '';
  return text !== '' && text.length <= max ? text : undefined;
};

export interface DirectoryServiceOptions {
  db: Db;
  directory: DirectoryClient;
  sessions: Sessions;
  twoFactor: TwoFactor;
  /** `auth.permissionsOf`: the rights of the session's answer, as a password sign-in gives them. */
  permissionsOf(userId: number): Promise<string[]>;
}

/**
 * Sign-in with the administration's directory (issue 42). A directory identity is the pair (issuer, `sub`); it reaches
 * an account only through `directory_links`, written when the owner links it from « Mon compte », at a first sign-in
 * when OIDC_LINK_BY_EMAIL trusts a verified email, or with the account OIDC_ACCOUNT_CREATION creates « en attente ».
 */
export function createDirectoryService({ db, directory, sessions, twoFactor, permissionsOf }: DirectoryServiceOptions) {
  const { settings } = directory;

  async function configuration() {
    try {
      return await directory.configuration();
    } catch {
      throw serviceUnavailable(DIRECTORY_MESSAGES.providerDown);
    }
  }

  /** The account of an identity, if linked; a sign-in that links by email or creates an account writes the link first. */
  async function accountOf(identity: DirectoryIdentity): Promise<number> {
    const [link] = await db
      .select({ userId: directoryLinks.user_id })
      .from(directoryLinks)
      .where(and(eq(directoryLinks.issuer, identity.issuer), eq(directoryLinks.subject, identity.subject)));
    if (link) return link.userId;
    if (settings.linkByEmail && identity.email) {
      if (!identity.emailVerified) throw refusal(DIRECTORY_MESSAGES.emailNotVerified, 'email_not_verified', 'sign_in');
      const [owner] = await db
        .select({ id: users.id, linked: directoryLinks.subject })
        .from(users)
        .leftJoin(directoryLinks, eq(directoryLinks.user_id, users.id))
        .where(eq(sql`lower(${users.email})`, identity.email.toLowerCase()));
      if (owner && owner.linked === null) {
        await writeLink(owner.id, identity, 'email');
        return owner.id;
      }
      if (owner) throw refusal(DIRECTORY_MESSAGES.noAccount, 'account_linked_elsewhere', 'sign_in', owner.id);
    }
    if (settings.accountCreation) return createPendingAccount(identity);
    throw refusal(DIRECTORY_MESSAGES.noAccount, 'unknown_identity', 'sign_in');
  }

  async function writeLink(userId: number, identity: DirectoryIdentity, how: 'account' | 'email' | 'creation', executor: Db = db) {
    const written = await executor
      .insert(directoryLinks)
      .values({ user_id: userId, issuer: identity.issuer, subject: identity.subject })
      .onConflictDoNothing()
      .returning({ userId: directoryLinks.user_id });
    if (written.length === 0) {
      const [taken] = await executor
        .select({ userId: directoryLinks.user_id })
        .from(directoryLinks)
        .where(and(eq(directoryLinks.issuer, identity.issuer), eq(directoryLinks.subject, identity.subject)));
      throw taken
        ? refusal(DIRECTORY_MESSAGES.identityTaken, 'identity_taken', how === 'account' ? 'account' : 'sign_in', userId)
        : refusal(DIRECTORY_MESSAGES.alreadyLinked, 'already_linked', 'account', userId);
    }
    await recordAudit(executor, {
      action: 'directory.link',
      actor: { id: userId },
      target: { type: 'user', id: userId },
      details: { issuer: identity.issuer, subject: identity.subject, by: how },
    });
  }

  /** OIDC_ACCOUNT_CREATION: an account without role nor structure nor password, which reaches nothing yet. */
  async function createPendingAccount(identity: DirectoryIdentity): Promise<number> {
    if (!identity.email) throw refusal(DIRECTORY_MESSAGES.noAccount, 'no_email', 'sign_in');
    const email = identity.email;
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
    // Never reaches an existing account by its email without OIDC_LINK_BY_EMAIL (handled above).
    if (taken) throw refusal(DIRECTORY_MESSAGES.noAccount, 'email_taken', 'sign_in', taken.id);
    // Two first sign-ins of one person at once: the second meets the unique email and is told as for a taken one.
    return createAccountRow(identity, email).catch((error: unknown) => {
      if (pgErrorCode(error) === '23505') throw refusal(DIRECTORY_MESSAGES.noAccount, 'email_taken', 'sign_in');
      throw error;
    });
  }

  function createAccountRow(identity: DirectoryIdentity, email: string): Promise<number> {
    return db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({
          email,
          firstname: identity.firstname ?? '',
          lastname: identity.lastname ?? email,
          structure_id: null,
          password_hash: null,
        })
        .returning({ id: users.id });
      await writeLink(created.id, identity, 'creation', tx as unknown as Db);
      await recordAudit(tx, {
        action: 'directory.account_created',
        actor: { id: created.id, email },
        target: { type: 'user', id: created.id, label: email },
        details: { issuer: identity.issuer, subject: identity.subject },
      });
      return created.id;
    });
  }

  /** The usual rules of a sign-in, and the second factor when the provider's `acr` did not stand for it. */
  async function signIn(identity: DirectoryIdentity, idToken: string): Promise<DirectoryOutcome> {
    const userId = await accountOf(identity);
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw refusal(DIRECTORY_MESSAGES.noAccount, 'unknown_identity', 'sign_in');
    if (!user.is_active) throw refusal(MESSAGES.accountBlocked, 'blocked', 'sign_in', userId);
    const [hasRole] = await db
      .select({ id: roles.id })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.role_id))
      .where(eq(userRoles.user_id, userId))
      .limit(1);
    if (user.structure_id === null || !hasRole) throw refusal(DIRECTORY_MESSAGES.pendingAccount, 'pending', 'sign_in', userId);
    if (settings.updateProfile) await updateProfile(user, identity);
    // This person's directory sessions whose tokens are all revoked or expired: their rows have no use left.
    await db.execute(sql`delete from ${directorySessions} d where d.user_id = ${userId} and not exists (
      select 1 from refresh_tokens t where t.family_id = d.family_id and t.revoked_at is null and t.expires_at > now())
      and d.created_at < now() - interval '10 minutes'`);
    const familyId = randomUUID();
    await db.insert(directorySessions).values({
      family_id: familyId,
      user_id: userId,
      issuer: identity.issuer,
      subject: identity.subject,
      sid: identity.sid ?? null,
      id_token: idToken,
      // identityOf refused any acr outside OIDC_ACR_VALUES: with that setting, this one is the second factor.
      second_factor: settings.acrValues !== undefined,
    });
    // An `acr` of OIDC_ACR_VALUES is the second factor; without that setting, the account's own code is asked next.
    if (user.totp_enabled_at && !settings.acrValues) {
      return { kind: 'two_factor', challenge_token: twoFactor.challengeFor(userId, familyId) };
    }
    const tokens = await sessions.start(userId, familyId);
    await recordAudit(db, {
      action: 'login',
      actor: { id: userId, email: user.email },
      details: { method: 'directory', issuer: identity.issuer, ...(identity.acr ? { acr: identity.acr } : {}) },
    });
    return {
      kind: 'signed_in',
      session: {
        ...tokens,
        features: await permissionsOf(userId),
        user: await userViewOf(db, userId, settings.acrValues !== undefined),
      },
    };
  }

  /** OIDC_UPDATE_PROFILE: the provider's name and email replace the account's; never its role, structure or rights. */
  async function updateProfile(user: typeof users.$inferSelect, identity: DirectoryIdentity) {
    const changes: Partial<Pick<typeof users.$inferSelect, 'firstname' | 'lastname' | 'email'>> = {};
    if (identity.firstname && identity.firstname !== user.firstname) changes.firstname = identity.firstname;
    if (identity.lastname && identity.lastname !== user.lastname) changes.lastname = identity.lastname;
    if (identity.email && identity.emailVerified && identity.email.toLowerCase() !== user.email.toLowerCase()) {
      const [taken] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(sql`lower(${users.email})`, identity.email.toLowerCase()));
      if (!taken) changes.email = identity.email;
    }
    if (Object.keys(changes).length === 0) return;
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ ...changes, updated_at: new Date() })
        .where(eq(users.id, user.id));
      await recordAudit(tx, {
        action: 'user.update',
        actor: { id: user.id },
        target: { type: 'user', id: user.id, label: changes.email ?? user.email },
        details: { by: 'directory', fields: Object.keys(changes) },
      });
    });
  }

  /** The provider's answer checked by openid-client, then what it says of the person (ID token, then userinfo). */
  async function identityOf(
    currentUrl: URL,
    dance: typeof directoryDances.$inferSelect,
    state: string,
  ): Promise<{ identity: DirectoryIdentity; idToken: string }> {
    const config = await configuration();
    const error = currentUrl.searchParams.get('error');
    if (error) throw refusal(DIRECTORY_MESSAGES.danceFailed, `provider_error:${error.slice(0, 60)}`, purposeBack(dance));
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, currentUrl, {
        expectedState: state,
        expectedNonce: dance.nonce,
        idTokenExpected: true,
        ...(dance.code_verifier ? { pkceCodeVerifier: dance.code_verifier } : {}),
      });
    } catch (cause) {
      // The provider not answering is not the person's failure: they are told to try again later.
      const unreachable = cause instanceof TypeError || (cause instanceof Error && cause.name === 'TimeoutError');
      throw refusal(
        unreachable ? DIRECTORY_MESSAGES.providerDown : DIRECTORY_MESSAGES.danceFailed,
        `${unreachable ? 'provider_down' : 'token_refused'}:${codeOf(cause)}`,
        purposeBack(dance),
        dance.user_id ?? undefined,
      );
    }
    const claims = tokens.claims();
    if (!claims) throw refusal(DIRECTORY_MESSAGES.danceFailed, 'no_id_token', purposeBack(dance));
    const acr = textClaim(claims.acr);
    if (settings.acrValues && (!acr || !settings.acrValues.includes(acr))) {
      throw refusal(DIRECTORY_MESSAGES.acrTooLow, `acr_too_low:${acr ?? 'none'}`, purposeBack(dance), dance.user_id ?? undefined);
    }
    let info: Record<string, unknown> = {};
    if (config.serverMetadata().userinfo_endpoint) {
      try {
        info = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      } catch (cause) {
        throw refusal(DIRECTORY_MESSAGES.danceFailed, `userinfo_refused:${codeOf(cause)}`, purposeBack(dance));
      }
    }
    const all: Record<string, unknown> = { ...claims, ...info };
    const identity: DirectoryIdentity = {
      issuer: claims.iss,
      subject: claims.sub,
      email: textClaim(all.email, TEXT_LIMITS.email),
      emailVerified: all.email_verified === true || all.email_verified === 'true',
      firstname: textClaim(all.given_name),
      // ProConnect names the family name `usual_name`.
      lastname: textClaim(all.usual_name) ?? textClaim(all.family_name),
      acr,
      sid: textClaim(claims.sid),
    };
    return { identity, idToken: tokens.id_token ?? '' };
  }

  const purposeBack = (dance: { purpose: string }): Refusal['back_to'] => (dance.purpose === 'link' ? 'account' : 'sign_in');

  /** Claims the dance of `state` once, on any instance: the row is deleted as it is read. */
  async function claimDance(state: string) {
    const [dance] = await db
      .delete(directoryDances)
      .where(eq(directoryDances.state_hash, hashToken(state)))
      .returning();
    return dance;
  }

  async function auditRefusal(refused: DanceRefused, purpose: Purpose | undefined) {
    await recordAudit(db, {
      action: purpose === 'link' ? 'directory.link' : 'directory.sign_in',
      result: 'failure',
      actor: refused.userId === undefined ? {} : { id: refused.userId },
      details: refused.reason.includes(':')
        ? { reason: refused.reason.split(':')[0], detail: refused.reason.slice(refused.reason.indexOf(':') + 1) }
        : { reason: refused.reason },
    });
  }

  return {
    /** A new dance: its row, the provider's address, and the `state` the browser's cookie carries back. */
    async startDance(purpose: Purpose, userId?: number): Promise<{ url: string; state: string }> {
      const config = await configuration();
      // 32 random bytes each: 43 characters, above ProConnect's minimum of 32.
      const state = client.randomState();
      const nonce = client.randomNonce();
      const verifier = settings.pkce ? client.randomPKCECodeVerifier() : null;
      await db.delete(directoryDances).where(lt(directoryDances.created_at, new Date(Date.now() - DANCE_TTL_MS)));
      await db.insert(directoryDances).values({
        state_hash: hashToken(state),
        purpose,
        user_id: userId ?? null,
        nonce,
        code_verifier: verifier,
      });
      const parameters: Record<string, string> = {
        redirect_uri: directory.redirectUri,
        scope: settings.scopes.join(' '),
        response_type: 'code',
        state,
        nonce,
      };
      if (verifier) {
        parameters.code_challenge = await client.calculatePKCECodeChallenge(verifier);
        parameters.code_challenge_method = 'S256';
      }
      if (settings.acrValues) parameters.acr_values = settings.acrValues.join(' ');
      if (purpose === 'link') parameters.prompt = 'login';
      return { url: client.buildAuthorizationUrl(config, parameters).href, state };
    },

    /**
     * The provider's answer at `/auth/oidc/callback`: the state must be the browser's (its cookie) and a live dance's,
     * used once, within 10 minutes; every refusal is in the audit journal and told in French.
     */
    async completeDance(currentUrl: URL, cookieState: string | undefined): Promise<DirectoryOutcome> {
      const state = currentUrl.searchParams.get('state') ?? '';
      let purpose: Purpose | undefined;
      try {
        if (!state || !cookieState || !sameText(state, cookieState)) {
          throw refusal(DIRECTORY_MESSAGES.danceFailed, state ? 'state_mismatch' : 'no_state', 'sign_in');
        }
        const dance = await claimDance(state);
        if (!dance) throw refusal(DIRECTORY_MESSAGES.danceFailed, 'state_unknown_or_used', 'sign_in');
        purpose = dance.purpose === 'link' ? 'link' : 'sign_in';
        if (dance.created_at.getTime() + DANCE_TTL_MS < Date.now()) {
          throw refusal(DIRECTORY_MESSAGES.danceFailed, 'state_expired', purposeBack(dance), dance.user_id ?? undefined);
        }
        const { identity, idToken } = await identityOf(currentUrl, dance, state);
        if (purpose === 'link') {
          if (dance.user_id === null) throw refusal(DIRECTORY_MESSAGES.danceFailed, 'link_without_account', 'account');
          await writeLink(dance.user_id, identity, 'account');
          return { kind: 'linked' };
        }
        return await signIn(identity, idToken);
      } catch (error) {
        if (!(error instanceof DanceRefused)) throw error;
        await auditRefusal(error, purpose);
        return error.outcome;
      }
    },

    /** « Délier de l'annuaire » by the owner: only while a password remains to sign in with. */
    async unlinkOwn(userId: number) {
      const [user] = await db.select({ password_hash: users.password_hash }).from(users).where(eq(users.id, userId));
      if (!user) throw notFound();
      if (user.password_hash === null) throw new AppError(409, DIRECTORY_MESSAGES.unlinkNeedsPassword);
      await removeLink(userId, 'owner');
      return userViewOf(db, userId);
    },

    /** An admin removes a user's link (« Comptes utilisateurs »). */
    async unlinkByAdmin(userId: number) {
      const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
      if (!user) throw notFound();
      await removeLink(userId, 'admin');
    },

    /**
     * « Déconnexion » of a directory session: the provider's end-session address (`id_token_hint`, a `state`, back to
     * the sign-in page), once the session's row is gone; undefined for a password session or a provider without one.
     */
    async logoutUrlFor(familyId: string): Promise<string | undefined> {
      const [row] = await db.delete(directorySessions).where(eq(directorySessions.family_id, familyId)).returning();
      if (!row) return undefined;
      const config = await directory.configuration().catch(() => undefined);
      if (!config?.serverMetadata().end_session_endpoint) return undefined;
      return client
        .buildEndSessionUrl(config, {
          id_token_hint: row.id_token,
          post_logout_redirect_uri: directory.postLogoutRedirectUri,
          state: client.randomState(),
        })
        .toString();
    },

    /**
     * A back-channel logout token (OpenID Connect Back-Channel Logout 1.0), checked by logout-token.ts: every session
     * of its `sid` (else of its `sub`) is revoked, which the guard sees at the next request on every instance.
     */
    async backchannelLogout(logoutToken: string): Promise<number> {
      const config = await configuration();
      const claims = await checkLogoutToken(db, config, settings.clientId, logoutToken);
      const issuer = config.serverMetadata().issuer;
      const which =
        typeof claims.sid === 'string'
          ? and(eq(directorySessions.issuer, issuer), eq(directorySessions.sid, claims.sid))
          : and(eq(directorySessions.issuer, issuer), eq(directorySessions.subject, String(claims.sub)));
      const ended = await db.transaction(async (tx) => {
        const rows = await tx.delete(directorySessions).where(which).returning();
        for (const row of rows) await sessions.revokeFamily(row.family_id, tx);
        return rows;
      });
      const userIds = [...new Set(ended.map((row) => row.user_id))];
      await recordAudit(db, {
        action: 'directory.backchannel_logout',
        actor: userIds.length === 1 ? { id: userIds[0] } : {},
        ...(userIds.length === 1 ? { target: { type: 'user' as const, id: userIds[0] } } : {}),
        details: { sessions: ended.length, ...(claims.sid ? { sid: claims.sid } : { subject: claims.sub }) },
      });
      return ended.length;
    },
  };

  async function removeLink(userId: number, by: 'owner' | 'admin') {
    await db.transaction(async (tx) => {
      const removed = await tx.delete(directoryLinks).where(eq(directoryLinks.user_id, userId)).returning();
      if (removed.length === 0) throw conflict(DIRECTORY_MESSAGES.notLinkedYet);
      await recordAudit(tx, {
        action: 'directory.unlink',
        target: { type: 'user', id: userId },
        details: { issuer: removed[0].issuer, subject: removed[0].subject, by },
      });
    });
  }
}

/** A short name of a library's refusal for the audit journal (openid-client's error codes), never a token. */
function codeOf(cause: unknown): string {
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code.slice(0, 80);
  return cause instanceof Error ? cause.name : 'unknown';
}

export type DirectoryService = ReturnType<typeof createDirectoryService>;
