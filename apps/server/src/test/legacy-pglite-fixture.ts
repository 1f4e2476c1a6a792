import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { drizzleOf } from '../db/client.ts';
import { MIGRATIONS_FOLDER } from '../db/migrate.ts';
import { seedDemoData } from '../db/seed/demo.ts';
import { seedReferenceData } from '../db/seed/reference.ts';

export interface LegacyPgliteFixture {
  /** A PGlite data directory, closed. */
  dataDir: string;
  /** A `dumpDataDir('gzip')` tarball of it, as the old server's backups were. */
  backupFile: string;
}

/**
 * Rows the demo data set has none of, with the values a copy gets wrong first: quotes, backslashes, line breaks,
 * emoji, nulls, JSON, big integers, microseconds. The natures inserted then deleted leave their sequence ahead of
 * the highest id, as real use does.
 */
const EXTRA_ROWS = `
  insert into natures (libnature) values ('Nature ajoutée par l''administrateur'), ('Nature supprimée 1'), ('Nature supprimée 2');
  delete from natures where libnature like 'Nature supprimée%';
  insert into roles (name, requires_two_factor) values ('auditeur', true);
  update users set totp_secret = 'v1:chiffré:AAAA', totp_enabled_at = '2026-01-02 03:04:05.123456+00', totp_last_step = 9007199254740991
    where email = 'admin@reformes.test';
  update users set totp_pending_secret = 'v1:en-attente:BBBB', must_change_password = true where email = 'saisie@reformes.test';
  update users set is_active = false where email = 'validation@reformes.test';
  insert into two_factor_recovery_codes (user_id, code_hash, used_at)
    select id, 'hash-' || n, case when n = 1 then '2026-02-03 10:00:00+00'::timestamptz end
    from users, generate_series(1, 10) n where email = 'admin@reformes.test';
  insert into user_settings (user_id, signature)
    select id, 'data:image/png;base64,iVBORw0KGgo=' from users where email = 'publication@reformes.test';
  insert into refresh_tokens (user_id, token_hash, family_id, expires_at, revoked_at)
    select id, 'jeton-' || id, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '2027-01-01 00:00:00+00', case when id % 2 = 0 then now() end from users;
  insert into password_reset_tokens (user_id, token_hash, expires_at) select id, 'lien-' || id, '2026-12-31 23:59:59.999999+00' from users;
  insert into rate_limits (key, hits, window_ends_at) values ('login-ip:127.0.0.1', 3, '2026-06-01 12:00:00+00');
  insert into login_failures (email_hash, client, failures, retry_at, forget_at) values ('e3b0c442', '192.0.2.7', 7, null, '2026-06-02 12:00:00+00');
  insert into login_account_failures (email_hash, failures, counted_at) values ('e3b0c442', 12.5, '2026-06-01 12:00:00+00');
  insert into jobs (kind, payload, max_attempts, attempts, last_error) values ('mail', '{"to": "a@reformes.test", "subject": "Réformes : « test »"}', 50, 2, 'SMTP injoignable');
  update reformes set libref = E'Réforme « test » : l''État, C:\\\\chemin\\\\, "guillemets"\\nligne 2\\t🚀', etat_mor = null,
    montant_prevu = 1234567890123.45, montant_trealise = null, difficult = null, is_active = false
    where id = (select min(id) from reformes);
  insert into reforme_files (reforme_id, name_file, name, original_name, size, created_by)
    select id, 'Note de cadrage', 'stockage-' || id || '.pdf', 'note cadrage (v2).pdf', 5000000000, created_by from reformes where id % 7 = 0;
  insert into reforme_files (reforme_id, name_file, name, original_name, size) values (null, 'En attente', 'attente.pdf', 'brouillon.pdf', 12);
  insert into affectations (reforme_id, sens, instruction, from_stage, to_stage, event)
    select id, 1, E'À corriger :\\n- l''objectif\\n- les dates', 2, 1, 'retour' from reformes where stage = 2 limit 3;
  insert into backups (name, type, size) values ('reformes-2026-01-01-db.tar.gz', 'pglite', 123456), ('reformes-2026-01-01-docs.tar.gz', 'doc', 42);
  insert into reminder_opt_outs (user_id, digest) select id, 'portfolio' from users where email = 'publication@reformes.test';
  insert into reminder_runs (trigger, mails, errors, finished_at) values ('schedule', 2, 1, '2026-06-01 07:00:05.5+00');
  insert into reminder_deliveries (user_id, digest, week, run_id, job_id)
    select u.id, 'structure', '2026-06-01', r.id, j.id from users u, reminder_runs r, jobs j where u.email = 'saisie@reformes.test';
  insert into audit_log (actor_id, actor_email, action, target_type, target_id, target_label, result, ip, details)
    select id, email, 'login', 'user', id, lastname || ' ' || firstname, 'success', '192.0.2.' || id, '{"device": "web"}' from users;
  insert into audit_log (actor_email, action, result, ip, details)
    values ('inconnu@exemple.test', 'login', 'failure', '::1', '{"raison": "mot de passe", "essais": [1, 2.5, null], "é": {"😀": true}}');
  insert into directory_links (user_id, issuer, subject) select id, 'https://annuaire.gouv.test/realms/agents', E'sub-« ' || id || E' »\\x' from users where email = 'validation@reformes.test';
  insert into directory_dances (state_hash, purpose, user_id, nonce, code_verifier) select 'etat-' || id, 'link', id, 'nonce-' || id, null from users where email = 'saisie@reformes.test';
  insert into directory_sessions (family_id, user_id, issuer, subject, sid, id_token, second_factor)
    select 'b0eebc99-9c0b-4ef8-bb6d-6bb9bd380a12', id, 'https://annuaire.gouv.test/realms/agents', 'sub-1', null, 'eyJ.jeton.signé', true from users where email = 'publication@reformes.test';
  insert into directory_logout_tokens (jti_hash, expires_at) values ('jti-haché', '2026-06-01 12:00:00.654321+00');
`;

/**
 * A PGlite data directory made the way the server before PostgreSQL made it (PGlite with pg_trgm, the migrations,
 * the reference and demo data), holding a row in every table, and a backup tarball of it, under `root`.
 */
export async function createLegacyPgliteFixture(root: string): Promise<LegacyPgliteFixture> {
  const dataDir = path.join(root, 'db');
  const backupFile = path.join(root, 'reformes-2026-01-01-db.tar.gz');
  const pglite = await PGlite.create(dataDir, { extensions: { pg_trgm } });
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 4 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 1 });
  const db = drizzleOf(pool);
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await seedReferenceData(db);
    await seedDemoData(db);
    await pool.query(EXTRA_ROWS);
  } finally {
    await pool.end();
    await server.stop();
  }
  await pglite.query('CHECKPOINT');
  const tarball = await pglite.dumpDataDir('gzip');
  await fs.promises.writeFile(backupFile, Buffer.from(await tarball.arrayBuffer()));
  await pglite.close();
  return { dataDir, backupFile };
}
