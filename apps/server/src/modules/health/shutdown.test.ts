import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { buildServer, killServer, type ServerProcess, startServer, waitReady } from '../../test/built-server.ts';
import { createTestDatabase } from '../../test/test-database.ts';

/** The compiled server stopped by a signal as an orchestrator stops it (`docs/operations.md`). */

const LOGIN = JSON.stringify({ email: 'admin@reformes.test', password: 'Reformes2026!', device: 'web' });

/** A sign-in whose body arrives in two parts: the request stays in flight until `finish` sends the rest. */
function slowSignIn(server: ServerProcess) {
  const half = Math.floor(LOGIN.length / 2);
  const request = http.request(server.url('/api/v1/api/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(LOGIN) },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('error', reject);
    request.on('response', (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
  });
  request.write(LOGIN.slice(0, half));
  return { answer, finish: () => request.end(LOGIN.slice(half)) };
}

const statusOf = (server: ServerProcess, pathname: string) =>
  fetch(server.url(pathname)).then(
    (response) => response.status,
    () => 0,
  );

/** True when a new TCP connection to the port is refused: the listener is closed. */
const isRefused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(50);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

describe('graceful shutdown of the compiled server (real process, SIGTERM)', () => {
  let build: Awaited<ReturnType<typeof buildServer>>;
  let database: Database;
  const started: ServerProcess[] = [];

  beforeAll(async () => {
    [build, database] = await Promise.all([buildServer(), createTestDatabase('seeded')]);
  }, 120_000);

  afterAll(async () => {
    for (const server of started) await killServer(server);
    await database?.close();
    build?.remove();
  });

  it('answers 503 on readiness at once, keeps liveness, closes the listener, finishes the request under way, exits 0', async () => {
    const server = await startServer(build.main, { databaseUrl: database.url, env: { SHUTDOWN_READY_DELAY_MS: '1500' } });
    started.push(server);
    await waitReady(server);
    const slow = slowSignIn(server);
    // The server has the headers: the request is in flight.
    await sleep(300);

    const signalledAt = Date.now();
    server.process.kill('SIGTERM');
    await waitUntil(async () => (await statusOf(server, '/api/v1/health/ready')) === 503, 1_000, 'readiness 503');
    expect(Date.now() - signalledAt).toBeLessThan(1_000);
    expect(await (await fetch(server.url('/api/v1/health/ready'))).json()).toMatchObject({ message: 'Arrêt en cours.' });
    expect(await statusOf(server, '/api/v1/health')).toBe(200);
    // During the delay the load balancer sees 503 but requests it still sends are served.
    expect(await statusOf(server, '/api/v1/reformes/public/filters')).toBe(200);

    // After the delay the listener closes while the sign-in is still waiting for its body.
    await waitUntil(() => isRefused(server.port), 5_000, 'the listener to close');
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1_500);
    expect(server.process.exitCode).toBeNull();

    slow.finish();
    const answer = await slow.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body).data.access_token).toEqual(expect.any(String));

    expect(await server.exited, server.output()).toBe(0);
    // Keep-alive connections (fetch keeps them) did not hold the exit.
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(server.output()).toContain('arrêt terminé');
  }, 60_000);

  it('exits 1 with a French message when a request outlasts SHUTDOWN_TIMEOUT_MS', async () => {
    const server = await startServer(build.main, {
      databaseUrl: database.url,
      env: { SHUTDOWN_READY_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '2000' },
    });
    started.push(server);
    await waitReady(server);
    const slow = slowSignIn(server);
    slow.answer.catch(() => undefined);
    await sleep(300);

    const signalledAt = Date.now();
    server.process.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(2_000);
    expect(Date.now() - signalledAt).toBeLessThan(6_000);
    expect(server.output()).toContain('arrêt trop long');
  }, 60_000);
});
