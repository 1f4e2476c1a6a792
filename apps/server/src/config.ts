import { isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_DIRECTORY_LABEL } from '@reformes/domain';
import { z } from 'zod';

const DEFAULT_JWT_SECRET = 'reformes-development-secret-change-me-please';

/** Documents go to an S3 bucket with all five, to STORAGE_DIR with none. */
const S3_SETTINGS = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
/** The directory's settings that have no default: any of them set asks for the three required ones (issue 42). */
const OIDC_SETTINGS = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_LABEL', 'OIDC_ACR_VALUES'] as const;
const OIDC_REQUIRED = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const isProxyAddress = (entry: string) =>
  ['loopback', 'linklocal', 'uniquelocal'].includes(entry) || (/^[^/]+(\/\d{1,3})?$/.test(entry) && isIP(entry.split('/')[0]) !== 0);

/**
 * Fastify's `trustProxy`: `false` (the socket's peer is the client), `true` (the first X-Forwarded-For address,
 * whoever wrote it), a number of proxy hops, or the proxies' addresses and ranges (`10.0.0.1,192.168.0.0/16`).
 */
const trustProxySetting = z
  .string()
  .trim()
  .refine((text) => /^(true|false|\d+)$/.test(text) || text.split(',').every((entry) => isProxyAddress(entry.trim())), {
    error: "TRUST_PROXY doit valoir true, false, un nombre de proxys ou une liste d'adresses IP ou de plages (10.0.0.1,192.168.0.0/16)",
  })
  .transform((text): boolean | string[] | ((address: string, hop: number) => boolean) => {
    if (text === 'true' || text === 'false') return text === 'true';
    // Zero hops trusts no proxy: the same as false.
    if (/^0+$/.test(text)) return false;
    // What Fastify does with a number of hops, which its types do not accept.
    if (/^\d+$/.test(text)) return (_address, hop) => hop < Number(text);
    return text.split(',').map((entry) => entry.trim());
  });

/** True for an address only this machine reaches: 127.0.0.1 (127.x), ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** A 32-byte key, written as 64 hexadecimal characters or in base64 (`openssl rand -hex 32`). */
function backupKeyOf(text: string): Buffer | undefined {
  const key = /^[0-9a-f]{64}$/i.test(text)
    ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/]{43}=?$/.test(text)
      ? Buffer.from(text, 'base64')
      : undefined;
  return key?.length === 32 ? key : undefined;
}

export const POSTGRES_POOL_MAX = 10;
export const EMBEDDED_POOL_MAX = 3;
/** Open-data downloads per IP and minute unless PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE says otherwise. */
export const PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE = 10;

const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().default('127.0.0.1'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: z.url().optional(),
    DATABASE_URL: z.string().min(1).optional(),
    DATABASE_POOL_MAX: z.coerce
      .number()
      .int('DATABASE_POOL_MAX doit être un nombre entier')
      .min(1, 'DATABASE_POOL_MAX doit valoir au moins 1')
      .max(100, 'DATABASE_POOL_MAX ne peut pas dépasser 100')
      .optional(),
    DATA_DIR: z.string().default('./data'),
    STORAGE_DIR: z.string().optional(),
    BACKUP_DIR: z.string().optional(),
    OUTBOX_DIR: z.string().optional(),
    SMTP_URL: z.string().min(1).optional(),
    MAIL_FROM: z.string().default('Réformes <no-reply@reformes.test>'),
    JWT_SECRET: z.string().min(32, 'JWT_SECRET doit contenir au moins 32 caractères').default(DEFAULT_JWT_SECRET),
    // "new,old": the first key seals the TOTP secrets, any of them opens them (two-factor.ts), so a key can be rotated.
    TOTP_ENCRYPTION_KEY: z
      .string()
      .transform((value) => value.split(',').map((key) => key.trim()))
      .pipe(z.array(z.string().min(32, 'TOTP_ENCRYPTION_KEY : chaque clé doit contenir au moins 32 caractères')).min(1))
      .optional(),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .default(15 * 60),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().positive().default(30),
    // No default here: absent means "yes" for the embedded database only (see loadConfig).
    SEED_DEMO: booleanFlag.optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    LOGIN_MAX_PER_IP_PER_MINUTE: z.coerce.number().int().positive().default(30),
    LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(5),
    LOGIN_MAX_DELAY_SECONDS: z.coerce
      .number()
      .int()
      .positive()
      .max(86_400, 'LOGIN_MAX_DELAY_SECONDS ne peut pas dépasser 86400 (un jour)')
      .default(900),
    // Well above what one client's back-off allows in an hour (about 17 with the defaults): docs/decisions.md.
    LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR: z.coerce
      .number()
      .int('LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR doit être un nombre entier')
      .positive('LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR doit valoir au moins 1')
      .default(100),
    FORGOT_MAX_PER_ACCOUNT_PER_HOUR: z.coerce.number().int().positive().default(3),
    RECOVERY_MAX_PER_IP_PER_MINUTE: z.coerce
      .number()
      .int('RECOVERY_MAX_PER_IP_PER_MINUTE doit être un nombre entier')
      .positive('RECOVERY_MAX_PER_IP_PER_MINUTE doit valoir au moins 1')
      .default(10),
    PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE: z.coerce
      .number()
      .int('PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE doit être un nombre entier')
      .positive('PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE doit valoir au moins 1')
      .default(PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE),
    TRUST_PROXY: trustProxySetting.default(false),
    UPLOAD_MAX_MB: z.coerce.number().positive().default(20),
    SIGNATURE_MAX_MB: z.coerce.number().positive().default(2),
    BACKUP_RETENTION: z.coerce.number().int().positive().default(30),
    // No default here: pg_dump with DATABASE_URL, the app's own dump for the embedded database (see loadConfig).
    BACKUP_DATABASE_FORMAT: z.enum(['pg_dump', 'logical'], { error: 'BACKUP_DATABASE_FORMAT doit valoir pg_dump ou logical' }).optional(),
    BACKUP_DAILY_AT: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "BACKUP_DAILY_AT doit être une heure HH:MM (par exemple 02:30), à l'heure du serveur")
      .optional(),
    AUDIT_RETENTION_DAYS: z.coerce
      .number()
      .int('AUDIT_RETENTION_DAYS doit être un nombre entier de jours')
      .positive('AUDIT_RETENTION_DAYS doit valoir au moins 1')
      .default(400),
    REMINDER_NO_FOLLOW_UP_DAYS: z.coerce
      .number()
      .int('REMINDER_NO_FOLLOW_UP_DAYS doit être un nombre entier de jours')
      .positive('REMINDER_NO_FOLLOW_UP_DAYS doit valoir au moins 1')
      .default(30),
    BACKUP_ENCRYPTION_KEY: z
      .string()
      .refine((text) => backupKeyOf(text) !== undefined, {
        error: 'BACKUP_ENCRYPTION_KEY doit faire 32 octets : 64 caractères hexadécimaux (openssl rand -hex 32) ou 44 en base64',
      })
      .optional(),
    PENDING_UPLOADS_MAX: z.coerce.number().int().positive().default(20),
    PENDING_UPLOADS_MAX_MB: z.coerce.number().positive().default(100),
    // No default here: absent means "yes" outside production only (see loadConfig).
    API_DOCS: booleanFlag.optional(),
    WEB_DIST: z.string().default('./apps/web/dist'),
    // No default here: absent means 5 s in production with DATABASE_URL, else 0 (see loadConfig).
    SHUTDOWN_READY_DELAY_MS: z.coerce
      .number()
      .int('SHUTDOWN_READY_DELAY_MS doit être un nombre entier de millisecondes')
      .min(0, 'SHUTDOWN_READY_DELAY_MS ne peut pas être négatif')
      .max(20_000, 'SHUTDOWN_READY_DELAY_MS ne peut pas dépasser 20000 (20 secondes)')
      .optional(),
    SHUTDOWN_TIMEOUT_MS: z.coerce
      .number()
      .int('SHUTDOWN_TIMEOUT_MS doit être un nombre entier de millisecondes')
      .min(1_000, 'SHUTDOWN_TIMEOUT_MS doit valoir au moins 1000')
      .default(30_000),
    METRICS_TOKEN: z.string().min(32, 'METRICS_TOKEN doit contenir au moins 32 caractères').optional(),
    S3_ENDPOINT: z.url('S3_ENDPOINT doit être une adresse (https://…)').optional(),
    S3_BUCKET: z.string().min(1).optional(),
    S3_REGION: z.string().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: booleanFlag.default(false),
    // Issue 42: sign-in with the administration's directory (OpenID Connect); none set = password sign-in only.
    OIDC_ISSUER: z.url("OIDC_ISSUER doit être l'adresse de l'émetteur OpenID Connect (https://…)").optional(),
    OIDC_CLIENT_ID: z.string().min(1, 'OIDC_CLIENT_ID ne peut pas être vide').optional(),
    OIDC_CLIENT_SECRET: z.string().min(1, 'OIDC_CLIENT_SECRET ne peut pas être vide').optional(),
    OIDC_SCOPES: z
      .string()
      .default('openid email profile')
      .transform((text) => text.split(/\s+/).filter(Boolean))
      .refine((scopes) => scopes.includes('openid'), { error: 'OIDC_SCOPES doit contenir openid' }),
    OIDC_LABEL: z.string().trim().min(1, 'OIDC_LABEL ne peut pas être vide').max(80, 'OIDC_LABEL : 80 caractères au plus').optional(),
    OIDC_PKCE: booleanFlag.default(true),
    OIDC_ACR_VALUES: z
      .string()
      .transform((text) => text.split(/[\s,]+/).filter(Boolean))
      .optional(),
    OIDC_LINK_BY_EMAIL: booleanFlag.default(false),
    OIDC_ACCOUNT_CREATION: booleanFlag.default(false),
    OIDC_UPDATE_PROFILE: booleanFlag.default(false),
    PASSWORD_SIGNIN: booleanFlag.default(true),
  })
  .superRefine((env, ctx) => {
    const oidcSet = OIDC_SETTINGS.filter((name) => env[name] !== undefined);
    const oidcMissing = OIDC_REQUIRED.filter((name) => env[name] === undefined);
    if (oidcSet.length > 0 && oidcMissing.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: [oidcMissing[0]],
        message: `la connexion par l'annuaire demande ${OIDC_REQUIRED.join(', ')} (manque : ${oidcMissing.join(', ')})`,
      });
    }
    if (env.PASSWORD_SIGNIN === false && env.OIDC_ISSUER === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['PASSWORD_SIGNIN'],
        message: "PASSWORD_SIGNIN=false demande la connexion par l'annuaire (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)",
      });
    }
    if (env.OIDC_ISSUER !== undefined && env.NODE_ENV === 'production' && !env.OIDC_ISSUER.startsWith('https://')) {
      ctx.addIssue({ code: 'custom', path: ['OIDC_ISSUER'], message: 'OIDC_ISSUER doit être une adresse https:// en production' });
    }
    const missingS3 = S3_SETTINGS.filter((name) => env[name] === undefined);
    if (missingS3.length > 0 && missingS3.length < S3_SETTINGS.length) {
      ctx.addIssue({
        code: 'custom',
        path: [missingS3[0]],
        message: `les réglages S3 vont ensemble : ${S3_SETTINGS.join(', ')} tous définis, ou aucun (manque : ${missingS3.join(', ')})`,
      });
    }
    if (env.NODE_ENV === 'production' && env.JWT_SECRET === DEFAULT_JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'JWT_SECRET doit être défini en production (pas de secret par défaut)',
      });
    } else if (env.JWT_SECRET === DEFAULT_JWT_SECRET && (env.DATABASE_URL !== undefined || isReachable(env))) {
      // The default secret is public (it is in this file): anyone could sign an admin's access token.
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message:
          env.DATABASE_URL !== undefined
            ? 'JWT_SECRET doit être défini avec DATABASE_URL (le secret par défaut est public)'
            : !isLoopbackHost(env.HOST)
              ? `JWT_SECRET doit être défini quand HOST (${env.HOST}) n'est pas une adresse locale (le secret par défaut est public)`
              : "JWT_SECRET doit être défini avec TRUST_PROXY (un proxy rend le serveur joignable par d'autres ; le secret par défaut est public)",
      });
    }
    if (env.METRICS_TOKEN === undefined && isReachable(env)) {
      // Without a token /metrics answers "this machine", which a same-host proxy that adds no forwarding header is too.
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_TOKEN'],
        message:
          "METRICS_TOKEN doit être défini quand HOST n'est pas une adresse locale ou avec TRUST_PROXY (sans jeton, /metrics répondrait à un proxy de la même machine)",
      });
    }
  });

export type Config = ReturnType<typeof loadConfig>;

/** Others than this machine reach the server: a HOST that is not a loopback address, or a proxy in front (TRUST_PROXY). */
function isReachable(env: { HOST: string; TRUST_PROXY: unknown }): boolean {
  return !isLoopbackHost(env.HOST) || env.TRUST_PROXY !== false;
}

/** The only reader of process.env: a bad variable stops the start with a readable message. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Configuration invalide :\n${lines.join('\n')}`);
  }
  const raw = parsed.data;
  const dataDir = path.resolve(raw.DATA_DIR);
  return {
    env: raw.NODE_ENV,
    host: raw.HOST,
    port: raw.PORT,
    publicUrl: (raw.PUBLIC_URL ?? `http://localhost:${raw.PORT}`).replace(/\/$/, ''),
    databaseUrl: raw.DATABASE_URL,
    /**
     * Connections of each server process. The embedded cluster shares the machine with the app: 3 backends keep two
     * cores busy while its memory stays small (docs/decisions.md, "Embedded database memory").
     */
    databasePoolMax: raw.DATABASE_POOL_MAX ?? (raw.DATABASE_URL === undefined ? EMBEDDED_POOL_MAX : POSTGRES_POOL_MAX),
    dataDir,
    /** The embedded PostgreSQL cluster (embedded-cluster.ts). */
    embeddedDir: path.join(dataDir, 'postgres'),
    /** Where versions before 2026-11-26 kept their PGlite database: converted at the first start (legacy-pglite.ts). */
    legacyPgliteDir: path.join(dataDir, 'db'),
    storageDir: path.resolve(raw.STORAGE_DIR ?? path.join(dataDir, 'storage')),
    backupDir: path.resolve(raw.BACKUP_DIR ?? path.join(dataDir, 'backups')),
    outboxDir: path.resolve(raw.OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
    smtpUrl: raw.SMTP_URL,
    mailFrom: raw.MAIL_FROM,
    jwtSecret: raw.JWT_SECRET,
    /**
     * Keys of the TOTP secrets and recovery codes, first one sealing. Absent, they are derived from JWT_SECRET as before
     * issue 29 (changing JWT_SECRET then voids every enrolment); what JWT_SECRET sealed stays readable once it is set.
     */
    totpEncryptionKeys: raw.TOTP_ENCRYPTION_KEY ?? [],
    accessTokenTtlSeconds: raw.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: raw.REFRESH_TOKEN_TTL_DAYS,
    /**
     * Demo data on an empty database: by default with the embedded database listening on a loopback address and no
     * proxy in front (TRUST_PROXY); with DATABASE_URL, another HOST or a proxy only when SEED_DEMO=true is explicit;
     * never in production (seed/index.ts). Architecture §5.
     */
    seedDemo: raw.SEED_DEMO ?? (raw.DATABASE_URL === undefined && !isReachable(raw)),
    logLevel: raw.LOG_LEVEL,
    loginMaxPerIpPerMinute: raw.LOGIN_MAX_PER_IP_PER_MINUTE,
    loginMaxFailures: raw.LOGIN_MAX_FAILURES,
    loginMaxDelaySeconds: raw.LOGIN_MAX_DELAY_SECONDS,
    /** Failed sign-ins of one account from all clients in a rolling hour; past it every client waits (throttles.ts). */
    loginAccountMaxFailuresPerHour: raw.LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR,
    forgotMaxPerAccountPerHour: raw.FORGOT_MAX_PER_ACCOUNT_PER_HOUR,
    /** Reset-link attempts (recovery-password) per client and minute, counted in the database. */
    recoveryMaxPerIpPerMinute: raw.RECOVERY_MAX_PER_IP_PER_MINUTE,
    /** Open-data downloads (export.json, export.csv) per IP and minute, counted in the database for all instances. */
    publicExportMaxPerIpPerMinute: raw.PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE,
    /** Behind a reverse proxy, so that `request.ip` (and the per-IP limits) name the client, not the proxy. */
    trustProxy: raw.TRUST_PROXY,
    uploadMaxBytes: Math.round(raw.UPLOAD_MAX_MB * 1024 * 1024),
    signatureMaxBytes: Math.round(raw.SIGNATURE_MAX_MB * 1024 * 1024),
    backupRetention: raw.BACKUP_RETENTION,
    /**
     * How the database is dumped: `pg_dump` (custom format, `…-db.dump`) or the app's own logical dump (`…-db.jsonl.gz`,
     * logical-dump.ts), which needs no pg_dump of the server's major version: the container image's choice. The
     * embedded cluster ships no pg_dump, so it is always `logical` there; unset, `pg_dump` for PostgreSQL (backups.service.ts).
     */
    backupDatabaseFormat: raw.BACKUP_DATABASE_FORMAT,
    /** `HH:MM`: a backup is made each day then, once across instances (jobs/schedule.ts); none without it. */
    backupDailyAt: raw.BACKUP_DAILY_AT,
    /** Audit entries older than this many days are deleted (modules/audit/audit-retention.ts). */
    auditRetentionDays: raw.AUDIT_RETENTION_DAYS,
    /** A reform of a structure without a follow-up record for this many days goes in its saisie digest (modules/reminders). */
    reminderNoFollowUpDays: raw.REMINDER_NO_FOLLOW_UP_DAYS,
    /** AES-256-GCM key of new backups; without it backups are written in clear, as before. */
    backupEncryptionKey: raw.BACKUP_ENCRYPTION_KEY === undefined ? undefined : backupKeyOf(raw.BACKUP_ENCRYPTION_KEY),
    /** Uploads waiting for their reform, per user: at most this many files and bytes. */
    pendingUploadsMax: raw.PENDING_UPLOADS_MAX,
    pendingUploadsMaxBytes: Math.round(raw.PENDING_UPLOADS_MAX_MB * 1024 * 1024),
    /** OpenAPI description and Swagger UI at /api/docs: outside production, or with API_DOCS=true. */
    apiDocs: raw.API_DOCS ?? raw.NODE_ENV !== 'production',
    webDist: path.resolve(raw.WEB_DIST),
    /**
     * On SIGTERM, how long readiness answers 503 before the listener closes, so that a load balancer's health check
     * takes the instance out first (docs/operations.md). Only an instance behind a load balancer gains from it: by
     * default in production with DATABASE_URL (the embedded database runs one instance), 0 elsewhere (Ctrl-C stays instant).
     */
    shutdownReadyDelayMs: raw.SHUTDOWN_READY_DELAY_MS ?? (raw.NODE_ENV === 'production' && raw.DATABASE_URL !== undefined ? 5_000 : 0),
    /** A stop that has not finished after this long exits with code 1 (requests still under way are cut). */
    shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS,
    /**
     * Bearer token of GET /metrics; without it only this machine gets the figures (http/metrics.ts). Required with
     * TRUST_PROXY or a non-loopback HOST.
     */
    metricsToken: raw.METRICS_TOKEN,
    /** The bucket of the documents (storage/s3-store.ts); without it they stay under storageDir. */
    s3:
      raw.S3_ENDPOINT && raw.S3_BUCKET && raw.S3_REGION && raw.S3_ACCESS_KEY_ID && raw.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: raw.S3_ENDPOINT,
            bucket: raw.S3_BUCKET,
            region: raw.S3_REGION,
            accessKeyId: raw.S3_ACCESS_KEY_ID,
            secretAccessKey: raw.S3_SECRET_ACCESS_KEY,
            forcePathStyle: raw.S3_FORCE_PATH_STYLE,
          }
        : undefined,
    /** Sign-in with the administration's directory (modules/directory); undefined when OIDC_ISSUER is not set. */
    oidc:
      raw.OIDC_ISSUER && raw.OIDC_CLIENT_ID && raw.OIDC_CLIENT_SECRET
        ? {
            issuer: raw.OIDC_ISSUER.replace(/\/$/, ''),
            clientId: raw.OIDC_CLIENT_ID,
            clientSecret: raw.OIDC_CLIENT_SECRET,
            scopes: raw.OIDC_SCOPES,
            label: raw.OIDC_LABEL ?? DEFAULT_DIRECTORY_LABEL,
            pkce: raw.OIDC_PKCE,
            acrValues: raw.OIDC_ACR_VALUES && raw.OIDC_ACR_VALUES.length > 0 ? raw.OIDC_ACR_VALUES : undefined,
            linkByEmail: raw.OIDC_LINK_BY_EMAIL,
            accountCreation: raw.OIDC_ACCOUNT_CREATION,
            updateProfile: raw.OIDC_UPDATE_PROFILE,
          }
        : undefined,
    /** False: the password form is the admins' break-glass way in (issue 42). */
    passwordSignIn: raw.PASSWORD_SIGNIN,
  };
}
