/**
 * npm run test:deploy (issue 43): builds the image with Podman (scripts/deploy/images.sh) and proves, through HTTP,
 * what an operator relies on:
 * 1. the image: at most 300 MB, a non-root user (uid 10001), ready within 10 s on the embedded default with the demo
 *    data, a sign-in, a healthy HEALTHCHECK, SIGTERM draining (readiness 503 while requests are still served, exit 0),
 *    and its data (database, documents, secrets) kept by a restarted and by a re-created container;
 * 2. deploy/compose.yaml as it is (with stand-ins of the PostgreSQL, HAProxy and SeaweedFS images): two instances
 *    behind HAProxy, the first administrator, a document stored through one instance and read through the other (S3),
 *    a backup, and each instance restarted in turn under load without a failed request.
 * Everything runs on loopback or on the stack's private network; containers, volumes and networks are removed at the end.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../apps/server/src/test/built-server.ts';
import { reading, sleep, steadyLoad, waitUntil } from '../../apps/server/src/test/steady-load.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const IMAGE = 'localhost/reformes:test';
const IMAGE_MAX_BYTES = 300 * 1000 * 1000;
const READY_MAX_MS = 10_000;
const TRIAL = 'reformes-deploy-trial';
const TRIAL_VOLUME = 'reformes-deploy-trial-data';
const PROJECT = 'reformes-deploy-test';
const DEPLOY_FILES = ['compose.yaml', 'haproxy.cfg', 'postgres-init.sh', '.env.example', 'up.sh'];
// A demo account that may attach documents (README, « Demo accounts »).
const DEMO = { email: 'saisie@reformes.test', password: 'Reformes2026!' };
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

const startedAt = Date.now();
const log = (message) => console.log(`[test:deploy ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)} s] ${message}`);
const cleanups = [];

function check(condition, message) {
  if (!condition) throw new Error(message);
}

function podman(...args) {
  return execFileSync('podman', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** podman, with its failure ignored (clean-up of what may not exist). */
function podmanQuietly(...args) {
  spawnSync('podman', args, { stdio: 'ignore' });
}

/** `condition` as a poll: a request refused while a server starts or stops counts as « not yet ». */
const polled = (condition: () => Promise<boolean>) => () => condition().catch(() => false);

/** A JSON call of the API at `base`; the answer's status and body. */
async function api(base, route, { token, method = 'GET', body, form } = {}) {
  const headers = { accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}/api/v1${route}`, {
    method,
    headers,
    body: form ?? (body ? JSON.stringify(body) : undefined),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the answers of many routes, read by field in this script only
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

/** The rows a list answer counts: its total when paged, else its length. */
const countOf = (json) => json?.data?.total ?? json?.data?.data?.length ?? (Array.isArray(json?.data) ? json.data.length : 0);

async function signIn(base, email, password) {
  const answer = await api(base, '/api/login', { method: 'POST', body: { email, password, device: 'web' } });
  check(answer.status === 200 && answer.json?.data?.access_token, `connexion de ${email} : ${answer.status} ${answer.text.slice(0, 200)}`);
  return answer.json.data.access_token;
}

async function uploadPdf(base, token) {
  const form = new FormData();
  form.append('name_file', 'Note de cadrage');
  form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'cadrage.pdf');
  const answer = await api(base, '/files', { token, method: 'POST', form });
  check(answer.status === 201, `envoi d'un PDF : ${answer.status} ${answer.text.slice(0, 200)}`);
  return answer.json.data.id;
}

async function readPdf(base, token, id) {
  const response = await fetch(`${base}/api/v1/files/${id}`, { headers: { authorization: `Bearer ${token}` } });
  const bytes = Buffer.from(await response.arrayBuffer());
  check(response.status === 200 && bytes.equals(PDF), `lecture du PDF ${id} : ${response.status}, ${bytes.length} octets`);
}

async function waitReady(base, timeoutMs) {
  await waitUntil(
    polled(async () => (await fetch(`${base}/api/v1/health/ready`)).status === 200),
    timeoutMs,
    `${base} prêt`,
  );
}

// 1. The image alone: the embedded default, as `podman run -p 3000:3000 -v reformes-data:/data reformes` gives it.
async function trialContainer() {
  const size = Number(podman('image', 'inspect', '--format', '{{.Size}}', IMAGE));
  log(`image ${IMAGE} : ${(size / 1e6).toFixed(0)} Mo (objectif ≤ ${IMAGE_MAX_BYTES / 1e6})`);
  check(size <= IMAGE_MAX_BYTES, `l'image fait ${(size / 1e6).toFixed(0)} Mo, plus de ${IMAGE_MAX_BYTES / 1e6}`);
  const labels = JSON.parse(podman('image', 'inspect', '--format', '{{json .Config}}', IMAGE));
  check(labels.User === '10001:10001', `utilisateur de l'image : ${labels.User}`);
  check(labels.StopSignal === 'SIGTERM', `signal d'arrêt : ${labels.StopSignal}`);

  podmanQuietly('rm', '-f', TRIAL);
  podmanQuietly('volume', 'rm', '-f', TRIAL_VOLUME);
  cleanups.push(() => {
    podmanQuietly('rm', '-f', TRIAL);
    podmanQuietly('volume', 'rm', '-f', TRIAL_VOLUME);
  });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The published port of `-p` is the host network's own here (no port mapping needed on loopback).
  const runTrial = () =>
    podman(
      'run',
      '-d',
      '--name',
      TRIAL,
      '--network=host',
      '-e',
      `PORT=${port}`,
      '-e',
      'SHUTDOWN_READY_DELAY_MS=1500',
      '-v',
      `${TRIAL_VOLUME}:/data`,
      IMAGE,
    );

  let t0 = Date.now();
  runTrial();
  await waitReady(base, 60_000);
  const firstStartMs = Date.now() - t0;
  log(`premier démarrage (base embarquée créée, migrations, données de démonstration) : prêt en ${firstStartMs} ms`);
  check(firstStartMs <= READY_MAX_MS, `prêt en ${firstStartMs} ms, plus de ${READY_MAX_MS}`);

  check(podman('exec', TRIAL, 'id', '-u') === '10001', "le conteneur ne tourne pas sous l'uid 10001");
  const users = podman('top', TRIAL, 'user').split('\n').slice(1);
  check(users.length > 1 && users.every((user) => user.trim() === 'reformes'), `processus du conteneur : ${users.join(', ')}`);
  check(spawnSync('podman', ['healthcheck', 'run', TRIAL]).status === 0, 'HEALTHCHECK en échec');
  log(`uid 10001 pour ${users.length} processus (Node et PostgreSQL embarqué), HEALTHCHECK sain`);

  const token = await signIn(base, DEMO.email, DEMO.password);
  const reformes = await api(base, '/reformes?per_page=1', { token });
  check(reformes.status === 200 && countOf(reformes.json) > 0, `données de démonstration absentes : ${reformes.text.slice(0, 200)}`);
  const fileId = await uploadPdf(base, token);
  log(`connexion du compte de démonstration, ${countOf(reformes.json)} réformes, un PDF enregistré (${fileId})`);

  // SIGTERM: readiness says 503 at once while the API still answers, then the process ends cleanly.
  podman('kill', '--signal', 'SIGTERM', TRIAL);
  await waitUntil(
    polled(async () => (await fetch(`${base}/api/v1/health/ready`)).status === 503),
    1_000,
    'disponibilité 503 après SIGTERM',
  );
  const during = await api(base, '/reformes?per_page=1', { token });
  check(during.status === 200, `requête pendant l'arrêt : ${during.status}`);
  await waitUntil(
    polled(async () => podman('inspect', '--format', '{{.State.Running}}', TRIAL) === 'false'),
    40_000,
    'fin du conteneur',
  );
  const exitCode = podman('inspect', '--format', '{{.State.ExitCode}}', TRIAL);
  check(exitCode === '0', `code de sortie après SIGTERM : ${exitCode}`);
  check(
    podman('logs', TRIAL).includes('arrêt terminé') ||
      spawnSync('podman', ['logs', TRIAL], { encoding: 'utf8' }).stderr.includes('arrêt terminé'),
    'pas de « arrêt terminé » dans le journal',
  );
  log('SIGTERM : disponibilité 503 aussitôt, requête servie pendant le délai, sortie 0, « arrêt terminé »');

  t0 = Date.now();
  podman('start', TRIAL);
  await waitReady(base, 60_000);
  log(`redémarré : prêt en ${Date.now() - t0} ms`);
  await readPdf(base, token, fileId);

  podman('stop', '--time', '40', TRIAL);
  podman('rm', TRIAL);
  t0 = Date.now();
  runTrial();
  await waitReady(base, 60_000);
  log(`conteneur recréé sur le même volume : prêt en ${Date.now() - t0} ms`);
  // The session of the first container still holds: same database, same drawn JWT_SECRET (/data/.container-secrets).
  await readPdf(base, token, fileId);
  log('après redémarrage et recréation : le PDF et la session sont toujours là');
  podman('stop', '--time', '40', TRIAL);
}

/** What a previous run of the stack may have left: its containers, volumes and network, found by compose's label. */
function removeProject() {
  const label = `label=io.podman.compose.project=${PROJECT}`;
  const containers = podman('ps', '-a', '-q', '--filter', label).split('\n').filter(Boolean);
  if (containers.length > 0) podmanQuietly('rm', '-f', '-t', '0', ...containers);
  const volumes = podman('volume', 'ls', '-q', '--filter', label).split('\n').filter(Boolean);
  if (volumes.length > 0) podmanQuietly('volume', 'rm', '-f', ...volumes);
  podmanQuietly('network', 'rm', '-f', `${PROJECT}_default`);
}

// 2. deploy/compose.yaml, unchanged, with the stand-in images.
async function composeStack() {
  removeProject();
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-compose-'));
  // The deploy folder as an operator has it (compose.yaml names its neighbours by relative paths).
  for (const file of DEPLOY_FILES) fs.copyFileSync(path.join(ROOT, 'deploy', file), path.join(project, file));
  const [httpPort, statsPort] = [await freePort(), await freePort()];
  // The .env of a newcomer (deploy/up.sh draws the secrets into a copy of .env.example), then this test's images and
  // ports: the later lines win.
  execFileSync('sh', [path.join(project, 'up.sh')], { env: { ...process.env, REFORMES_UP_ENV_ONLY: '1' }, stdio: 'ignore' });
  const drawn = fs.readFileSync(path.join(project, '.env'), 'utf8');
  check(/^JWT_SECRET=[0-9a-f]{64}$/m.test(drawn) && /^POSTGRES_PASSWORD=[0-9a-f]{64}$/m.test(drawn), "up.sh n'a pas tiré les secrets");
  fs.appendFileSync(
    path.join(project, '.env'),
    [
      '',
      '# npm run test:deploy',
      `PUBLIC_URL=http://127.0.0.1:${httpPort}`,
      `HTTP_PORT=${httpPort}`,
      `STATS_PORT=${statsPort}`,
      // The stand-in's one key pair (s3rver).
      'S3_ACCESS_KEY_ID=S3RVER',
      'S3_SECRET_ACCESS_KEY=S3RVER',
      `REFORMES_IMAGE=${IMAGE}`,
      'POSTGRES_IMAGE=localhost/reformes-postgres-standin:test',
      'HAPROXY_IMAGE=localhost/reformes-haproxy-standin:test',
      'SEAWEEDFS_IMAGE=localhost/reformes-s3-standin:test',
      '',
    ].join('\n'),
  );
  const compose = (...args) =>
    execFileSync('podman-compose', ['-p', PROJECT, '-f', path.join(project, 'compose.yaml'), ...args], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  cleanups.push(() => {
    removeProject();
    fs.rmSync(project, { recursive: true, force: true });
  });

  let t0 = Date.now();
  compose('up', '-d', '--no-build');
  const base = `http://127.0.0.1:${httpPort}`;
  const stats = `http://127.0.0.1:${statsPort}/stats;csv`;
  const statusOf = async () => {
    const [header, ...rows] = (await (await fetch(stats)).text()).split('\n');
    const columns = header.replace(/^# /, '').split(',');
    const at = (name) => columns.indexOf(name);
    return Object.fromEntries(
      rows
        .map((line) => line.split(','))
        .filter((cells) => cells[0] === 'instances' && /^app\d+$/.test(cells[1]))
        .map((cells) => [cells[1], { status: cells[at('status')], served: Number(cells[at('stot')]), address: cells[at('addr')] }]),
    );
  };
  const upCount = async () => Object.values(await statusOf()).filter((server) => server.status === 'UP').length;
  await waitUntil(
    polled(async () => (await upCount()) === 2),
    120_000,
    'deux instances UP derrière HAProxy',
  );
  log(`compose : PostgreSQL, S3, deux instances et HAProxy en ${Date.now() - t0} ms ; HAProxy voit 2 instances UP`);
  const appLogs = spawnSync('podman', ['logs', `${PROJECT}_app_1`], { encoding: 'utf8' });
  check(!`${appLogs.stdout}${appLogs.stderr}`.includes('superutilisateur'), "l'instance se connecte en superutilisateur PostgreSQL");

  const [app1, app2] = [`${PROJECT}_app_1`, `${PROJECT}_app_2`];
  // The network's DNS may not answer a process started by `podman exec` at once (EAI_AGAIN): a few tries.
  let created = '';
  for (let attempt = 1; !created; attempt++) {
    const run = spawnSync('podman', ['exec', app1, 'node', 'apps/server/dist/create-admin.js', '--email', 'chef@exemple.gouv.fr'], {
      encoding: 'utf8',
    });
    if (run.status === 0) created = run.stdout;
    else if (attempt === 5 || !/EAI_AGAIN|ENOTFOUND/.test(run.stderr + run.stdout))
      throw new Error(`create-admin : ${run.stderr}${run.stdout}`);
    else await sleep(2_000);
  }
  const temporary = created.match(/Mot de passe temporaire : (\S+)/)?.[1];
  check(temporary, `create-admin : ${created}`);
  const password = `Un-${crypto.randomBytes(8).toString('hex')}-Passe!`;
  let token = await signIn(base, 'chef@exemple.gouv.fr', temporary);
  const first = await api(base, '/api/change-first-password', { token, method: 'POST', body: { password, confirm_password: password } });
  check(first.status === 200, `premier mot de passe : ${first.status} ${first.text.slice(0, 200)}`);
  token = await signIn(base, 'chef@exemple.gouv.fr', password);
  log('premier administrateur créé (create-admin dans un conteneur), mot de passe changé, connecté par HAProxy');

  // A backup made by one instance, listed and downloaded through the other: its archive is in the S3 store.
  const direct = (name) => `http://${podman('inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', name)}:3000`;
  const backup = await api(direct(app1), '/api/save-db', { token });
  check(backup.status === 200, `sauvegarde : ${backup.status} ${backup.text.slice(0, 200)}`);
  const backups = await api(direct(app2), '/api/backups', { token });
  check(backups.status === 200 && countOf(backups.json) >= 1, `liste des sauvegardes : ${backups.status} ${backups.text.slice(0, 300)}`);
  const [archive] = backups.json.data.data ?? backups.json.data;
  const folder = archive.type === 'doc' ? 'docs' : 'db_data';
  const download = await fetch(`${direct(app2)}/api/v1/storage/backups/${folder}/${archive.name}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const archiveBytes = (await download.arrayBuffer()).byteLength;
  check(download.status === 200 && archiveBytes > 0, `téléchargement de la sauvegarde ${archive.id} : ${download.status}`);
  const stored = podman('exec', `${PROJECT}_s3_1`, 'sh', '-c', 'find /data -type f | wc -l');
  check(Number(stored) > 0, 'aucun objet dans le magasin S3');
  log(`sauvegarde faite par ${app1}, listée et téléchargée (${archiveBytes} octets) par ${app2} ; ${stored} fichiers dans le magasin S3`);

  // Each instance stopped (SIGTERM) and started again under load: HAProxy takes it out first, nothing fails.
  const load = steadyLoad(4, reading(`${base}/api/v1/reformes/public/suivi-result?per_page=10`));
  await sleep(1_000);
  t0 = Date.now();
  for (const name of [app1, app2]) {
    podman('stop', '--time', '40', name);
    podman('start', name);
    await waitUntil(
      polled(async () => (await upCount()) === 2),
      60_000,
      `${name} de retour derrière HAProxy`,
    );
  }
  const restartMs = Date.now() - t0;
  await sleep(1_000);
  const { succeeded: served, failures } = await load.stop();
  const servers = await statusOf();
  log(`redémarrage des deux instances l'une après l'autre en ${restartMs} ms : ${served} requêtes servies, ${failures.length} en échec`);
  check(failures.length === 0, `requêtes en échec pendant le redémarrage :\n${failures.slice(0, 20).join('\n')}`);
  check(served > 50, `trop peu de requêtes servies (${served})`);
  check(servers.app1.served > 0 && servers.app2.served > 0, `HAProxy n'a pas réparti : ${JSON.stringify(servers)}`);
}

async function main() {
  log('images (scripts/deploy/images.sh)');
  const images = spawnSync(path.join(ROOT, 'scripts/deploy/images.sh'), { stdio: 'inherit', cwd: ROOT });
  check(images.status === 0, 'construction des images en échec');
  await trialContainer();
  await composeStack();
}

let failed = false;
try {
  await main();
  log('OK');
} catch (error) {
  failed = true;
  console.error(`[test:deploy] ÉCHEC : ${error.message}`);
  for (const name of [TRIAL, `${PROJECT}_app_1`, `${PROJECT}_app_2`, `${PROJECT}_haproxy_1`]) {
    const logs = spawnSync('podman', ['logs', '--tail', '15', name], { encoding: 'utf8' });
    if (logs.status === 0) console.error(`--- ${name}\n${logs.stdout}${logs.stderr}`);
  }
} finally {
  for (const cleanup of cleanups.reverse()) cleanup();
  // The build stages' layers: several hundred megabytes each.
  podmanQuietly('image', 'prune', '-f');
}
process.exit(failed ? 1 : 0);
