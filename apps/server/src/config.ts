import path from 'node:path';
import { z } from 'zod';

const DEFAULT_JWT_SECRET = 'reformes-development-secret-change-me-please';

const booleanFlag = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

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
      .default(10),
    DATA_DIR: z.string().default('./data'),
    STORAGE_DIR: z.string().optional(),
    BACKUP_DIR: z.string().optional(),
    OUTBOX_DIR: z.string().optional(),
    SMTP_URL: z.string().min(1).optional(),
    MAIL_FROM: z.string().default('Réformes <no-reply@reformes.test>'),
    JWT_SECRET: z.string().min(32, 'JWT_SECRET doit contenir au moins 32 caractères').default(DEFAULT_JWT_SECRET),
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
    LOGIN_LOCK_MINUTES: z.coerce.number().int().positive().default(15),
    UPLOAD_MAX_MB: z.coerce.number().positive().default(20),
    SIGNATURE_MAX_MB: z.coerce.number().positive().default(2),
    BACKUP_RETENTION: z.coerce.number().int().positive().default(30),
    WEB_DIST: z.string().default('./apps/web/dist'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === 'production' && env.JWT_SECRET === DEFAULT_JWT_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_SECRET'],
        message: 'JWT_SECRET doit être défini en production (pas de secret par défaut)',
      });
    }
  });

export type Config = ReturnType<typeof loadConfig>;

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
    /** PostgreSQL only: the embedded database always uses a single connection. */
    databasePoolMax: raw.DATABASE_POOL_MAX,
    dataDir,
    pgliteDir: path.join(dataDir, 'db'),
    storageDir: path.resolve(raw.STORAGE_DIR ?? path.join(dataDir, 'storage')),
    backupDir: path.resolve(raw.BACKUP_DIR ?? path.join(dataDir, 'backups')),
    outboxDir: path.resolve(raw.OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
    smtpUrl: raw.SMTP_URL,
    mailFrom: raw.MAIL_FROM,
    jwtSecret: raw.JWT_SECRET,
    accessTokenTtlSeconds: raw.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: raw.REFRESH_TOKEN_TTL_DAYS,
    /**
     * Demo data on an empty database: by default with the embedded database; with DATABASE_URL only when
     * SEED_DEMO=true is explicit; never in production (seed/index.ts). Architecture §5.
     */
    seedDemo: raw.SEED_DEMO ?? raw.DATABASE_URL === undefined,
    logLevel: raw.LOG_LEVEL,
    loginMaxPerIpPerMinute: raw.LOGIN_MAX_PER_IP_PER_MINUTE,
    loginMaxFailures: raw.LOGIN_MAX_FAILURES,
    loginLockMinutes: raw.LOGIN_LOCK_MINUTES,
    uploadMaxBytes: Math.round(raw.UPLOAD_MAX_MB * 1024 * 1024),
    signatureMaxBytes: Math.round(raw.SIGNATURE_MAX_MB * 1024 * 1024),
    backupRetention: raw.BACKUP_RETENTION,
    webDist: path.resolve(raw.WEB_DIST),
  };
}
