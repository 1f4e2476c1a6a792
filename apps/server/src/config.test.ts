import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const POSTGRES = 'postgres://reformes@db.example:5432/reformes';
const SECRET = 'un-secret-de-production-long-de-40-caracteres';
const METRICS = 'un-jeton-des-metriques-de-plus-de-32-caracteres';

describe('configuration', () => {
  it('signs in with the directory only with OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together (issue 42)', () => {
    const oidc = { OIDC_ISSUER: 'https://annuaire.gouv.test/realms/agents/', OIDC_CLIENT_ID: 'reformes', OIDC_CLIENT_SECRET: 's3cr3t' };
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(loadConfig({}).passwordSignIn).toBe(true);
    expect(loadConfig(oidc).oidc).toEqual({
      issuer: 'https://annuaire.gouv.test/realms/agents',
      clientId: 'reformes',
      clientSecret: 's3cr3t',
      scopes: ['openid', 'email', 'profile'],
      label: "Se connecter avec l'annuaire de l'administration",
      pkce: true,
      acrValues: undefined,
      linkByEmail: false,
      accountCreation: false,
      updateProfile: false,
    });
    expect(loadConfig({ ...oidc, OIDC_ACR_VALUES: 'eidas2 eidas3', OIDC_PKCE: 'false', OIDC_LABEL: 'ProConnect' }).oidc).toMatchObject({
      acrValues: ['eidas2', 'eidas3'],
      pkce: false,
      label: 'ProConnect',
    });
    expect(() => loadConfig({ OIDC_ISSUER: oidc.OIDC_ISSUER })).toThrow(
      "la connexion par l'annuaire demande OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET (manque : OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)",
    );
    expect(() => loadConfig({ ...oidc, OIDC_SCOPES: 'email profile' })).toThrow('OIDC_SCOPES doit contenir openid');
    expect(() => loadConfig({ PASSWORD_SIGNIN: 'false' })).toThrow("PASSWORD_SIGNIN=false demande la connexion par l'annuaire");
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER: 'http://annuaire.gouv.test', NODE_ENV: 'production', JWT_SECRET: SECRET })).toThrow(
      'OIDC_ISSUER doit être une adresse https:// en production',
    );
    expect(() => loadConfig({ ...oidc, OIDC_ISSUER: 'pas une adresse' })).toThrow("OIDC_ISSUER doit être l'adresse de l'émetteur");
  });

  it('limits open-data downloads per IP and minute with PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE (default 10)', () => {
    expect(loadConfig({}).publicExportMaxPerIpPerMinute).toBe(10);
    expect(loadConfig({ PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE: '3' }).publicExportMaxPerIpPerMinute).toBe(3);
    expect(() => loadConfig({ PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE: '0' })).toThrow(
      'PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE doit valoir au moins 1',
    );
  });

  it('sizes the pool with DATABASE_POOL_MAX (default 10 on PostgreSQL, 3 on the embedded cluster, 1 to 100)', () => {
    expect(loadConfig({}).databasePoolMax).toBe(3);
    expect(loadConfig({ DATABASE_URL: POSTGRES, JWT_SECRET: SECRET }).databasePoolMax).toBe(10);
    expect(loadConfig({ DATABASE_POOL_MAX: '12' }).databasePoolMax).toBe(12);
    expect(loadConfig({ DATABASE_POOL_MAX: '4' }).databasePoolMax).toBe(4);
    expect(() => loadConfig({ DATABASE_POOL_MAX: '0' })).toThrow('DATABASE_POOL_MAX doit valoir au moins 1');
    expect(() => loadConfig({ DATABASE_POOL_MAX: '500' })).toThrow('DATABASE_POOL_MAX ne peut pas dépasser 100');
    expect(() => loadConfig({ DATABASE_POOL_MAX: '2.5' })).toThrow('DATABASE_POOL_MAX doit être un nombre entier');
    expect(() => loadConfig({ DATABASE_POOL_MAX: 'beaucoup' })).toThrow('DATABASE_POOL_MAX');
  });

  it('keeps documents on disk without S3 settings, in the bucket with all five, and refuses a partial set', () => {
    const s3 = {
      S3_ENDPOINT: 'https://s3.example',
      S3_BUCKET: 'documents',
      S3_REGION: 'eu-west-3',
      S3_ACCESS_KEY_ID: 'cle',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig(s3).s3).toEqual({
      endpoint: 'https://s3.example',
      bucket: 'documents',
      region: 'eu-west-3',
      accessKeyId: 'cle',
      secretAccessKey: 'secret',
      forcePathStyle: false,
    });
    expect(loadConfig({ ...s3, S3_FORCE_PATH_STYLE: 'true' }).s3?.forcePathStyle).toBe(true);
    const { S3_REGION: _region, S3_SECRET_ACCESS_KEY: _secret, ...partial } = s3;
    expect(() => loadConfig(partial)).toThrow(
      'S3_REGION: les réglages S3 vont ensemble : S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY tous définis, ou aucun (manque : S3_REGION, S3_SECRET_ACCESS_KEY)',
    );
  });

  it('refuses the default JWT_SECRET with DATABASE_URL, on a non-loopback HOST and in production', () => {
    expect(() => loadConfig({ DATABASE_URL: POSTGRES })).toThrow(
      'Configuration invalide :\n  JWT_SECRET: JWT_SECRET doit être défini avec DATABASE_URL (le secret par défaut est public)',
    );
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(
      "JWT_SECRET doit être défini quand HOST (0.0.0.0) n'est pas une adresse locale (le secret par défaut est public)",
    );
    expect(() => loadConfig({ HOST: '192.168.1.10' })).toThrow('JWT_SECRET doit être défini quand HOST (192.168.1.10)');
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('JWT_SECRET doit être défini en production');
    // A proxy in front means that others reach the server, even on a loopback HOST.
    for (const trustProxy of ['true', '1', '10.0.0.1', 'loopback']) {
      expect(() => loadConfig({ TRUST_PROXY: trustProxy }), trustProxy).toThrow(
        "JWT_SECRET doit être défini avec TRUST_PROXY (un proxy rend le serveur joignable par d'autres ; le secret par défaut est public)",
      );
    }
    expect(loadConfig({ TRUST_PROXY: 'true', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS }).jwtSecret).toBe(SECRET);
    // Writing the default value out is no better than leaving it out.
    expect(() => loadConfig({ DATABASE_URL: POSTGRES, JWT_SECRET: 'reformes-development-secret-change-me-please' })).toThrow('JWT_SECRET');

    expect(loadConfig({ DATABASE_URL: POSTGRES, JWT_SECRET: SECRET }).jwtSecret).toBe(SECRET);
    expect(loadConfig({ HOST: '0.0.0.0', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS }).host).toBe('0.0.0.0');
    for (const host of ['127.0.0.1', '::1', 'localhost', '127.0.1.1']) {
      expect(loadConfig({ HOST: host }).jwtSecret, host).toBe('reformes-development-secret-change-me-please');
    }
  });

  it('requires METRICS_TOKEN with TRUST_PROXY or a non-loopback HOST (issue 40, item 9): a same-host proxy must not open /metrics', () => {
    const refusal =
      "METRICS_TOKEN doit être défini quand HOST n'est pas une adresse locale ou avec TRUST_PROXY (sans jeton, /metrics répondrait à un proxy de la même machine)";
    for (const env of [{ TRUST_PROXY: 'true' }, { TRUST_PROXY: '127.0.0.1' }, { TRUST_PROXY: '1' }, { HOST: '0.0.0.0' }]) {
      expect(() => loadConfig({ ...env, JWT_SECRET: SECRET }), JSON.stringify(env)).toThrow(`  METRICS_TOKEN: ${refusal}`);
      expect(loadConfig({ ...env, JWT_SECRET: SECRET, METRICS_TOKEN: METRICS }).metricsToken).toBe(METRICS);
    }
    // On a loopback HOST with no proxy in front, only this machine reaches /metrics: the token stays optional.
    for (const env of [{}, { TRUST_PROXY: 'false' }, { TRUST_PROXY: '0' }, { HOST: '::1' }]) {
      expect(loadConfig(env).metricsToken, JSON.stringify(env)).toBeUndefined();
    }
  });

  it('seeds the demo accounts by default only with the embedded database on a loopback HOST', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ HOST: 'localhost' }).seedDemo).toBe(true);
    expect(loadConfig({ HOST: '::1' }).seedDemo).toBe(true);
    expect(loadConfig({ HOST: '0.0.0.0', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS }).seedDemo).toBe(false);
    expect(loadConfig({ HOST: '10.0.0.5', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS }).seedDemo).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: POSTGRES, JWT_SECRET: SECRET }).seedDemo).toBe(false);
  });

  it('seeds no demo account behind a proxy (TRUST_PROXY) unless SEED_DEMO=true', () => {
    expect(loadConfig({ TRUST_PROXY: 'true', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS }).seedDemo).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS }).seedDemo).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS, SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).seedDemo).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '0' }).seedDemo).toBe(true);
  });

  it('reads BACKUP_DATABASE_FORMAT: pg_dump or logical, nothing else', () => {
    expect(loadConfig({}).backupDatabaseFormat).toBeUndefined();
    expect(loadConfig({ BACKUP_DATABASE_FORMAT: 'logical' }).backupDatabaseFormat).toBe('logical');
    expect(loadConfig({ BACKUP_DATABASE_FORMAT: 'pg_dump' }).backupDatabaseFormat).toBe('pg_dump');
    expect(() => loadConfig({ BACKUP_DATABASE_FORMAT: 'tar' })).toThrow('BACKUP_DATABASE_FORMAT doit valoir pg_dump ou logical');
  });

  it('serves /api/docs outside production, in production only with API_DOCS=true', () => {
    expect(loadConfig({}).apiDocs).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test' }).apiDocs).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }).apiDocs).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET, API_DOCS: 'true' }).apiDocs).toBe(true);
    expect(loadConfig({ API_DOCS: 'false' }).apiDocs).toBe(false);
    expect(() => loadConfig({ API_DOCS: 'oui' })).toThrow('API_DOCS');
  });

  it('waits for the load balancer on a stop only in production with DATABASE_URL, unless SHUTDOWN_READY_DELAY_MS says', () => {
    expect(loadConfig({}).shutdownReadyDelayMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET }).shutdownReadyDelayMs).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: SECRET, DATABASE_URL: POSTGRES }).shutdownReadyDelayMs).toBe(5_000);
    expect(loadConfig({ SHUTDOWN_READY_DELAY_MS: '1500' }).shutdownReadyDelayMs).toBe(1_500);
    expect(loadConfig({}).shutdownTimeoutMs).toBe(30_000);
    expect(() => loadConfig({ SHUTDOWN_READY_DELAY_MS: '25000' })).toThrow('SHUTDOWN_READY_DELAY_MS ne peut pas dépasser 20000');
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_MS: '500' })).toThrow('SHUTDOWN_TIMEOUT_MS doit valoir au moins 1000');
  });

  it('reads BACKUP_ENCRYPTION_KEY as 32 bytes in hexadecimal or base64, and refuses anything else', () => {
    const key = Buffer.alloc(32, 7);
    expect(loadConfig({}).backupEncryptionKey).toBeUndefined();
    expect(loadConfig({ BACKUP_ENCRYPTION_KEY: key.toString('hex') }).backupEncryptionKey).toEqual(key);
    expect(loadConfig({ BACKUP_ENCRYPTION_KEY: key.toString('base64') }).backupEncryptionKey).toEqual(key);
    for (const bad of ['secret', key.toString('hex').slice(2), Buffer.alloc(16).toString('base64'), `${key.toString('hex')}00`]) {
      expect(() => loadConfig({ BACKUP_ENCRYPTION_KEY: bad })).toThrow(
        'BACKUP_ENCRYPTION_KEY doit faire 32 octets : 64 caractères hexadécimaux (openssl rand -hex 32) ou 44 en base64',
      );
    }
  });

  it('limits the uploads waiting for their reform (PENDING_UPLOADS_MAX, default 20 files / 100 MB)', () => {
    expect(loadConfig({})).toMatchObject({ pendingUploadsMax: 20, pendingUploadsMaxBytes: 100 * 1024 * 1024 });
    expect(loadConfig({ PENDING_UPLOADS_MAX: '3', PENDING_UPLOADS_MAX_MB: '0.5' })).toMatchObject({
      pendingUploadsMax: 3,
      pendingUploadsMaxBytes: 512 * 1024,
    });
  });

  it('reads TRUST_PROXY as Fastify trustProxy: false by default, true, a number of hops or a list of addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,loopback', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS }).trustProxy,
    ).toEqual(['10.0.0.1', '192.168.0.0/16', '::1', 'loopback']);
    const hops = loadConfig({ TRUST_PROXY: '2', JWT_SECRET: SECRET, METRICS_TOKEN: METRICS }).trustProxy as (
      address: string,
      hop: number,
    ) => boolean;
    expect([0, 1, 2].map((hop) => hops('10.0.0.1', hop))).toEqual([true, true, false]);
    for (const bad of ['oui', '10.0.0.300', 'proxy.example']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow('TRUST_PROXY doit valoir true, false, un nombre de proxys');
    }
  });

  it('bounds the sign-in waits (LOGIN_MAX_DELAY_SECONDS, default 900, at most a day) and the reset mails per email', () => {
    expect(loadConfig({})).toMatchObject({
      loginMaxFailures: 5,
      loginMaxDelaySeconds: 900,
      loginAccountMaxFailuresPerHour: 100,
      forgotMaxPerAccountPerHour: 3,
      recoveryMaxPerIpPerMinute: 10,
    });
    expect(loadConfig({ LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR: '40', RECOVERY_MAX_PER_IP_PER_MINUTE: '4' })).toMatchObject({
      loginAccountMaxFailuresPerHour: 40,
      recoveryMaxPerIpPerMinute: 4,
    });
    expect(() => loadConfig({ LOGIN_MAX_DELAY_SECONDS: '100000' })).toThrow('LOGIN_MAX_DELAY_SECONDS ne peut pas dépasser 86400');
  });
});
