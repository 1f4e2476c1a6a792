import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebApp, type WebApp } from './web-app.ts';

const SCRIPT = `console.log(${JSON.stringify('réformes '.repeat(200))});`;

/** A web build as `npm run build` writes it: index.html, a page, a hashed asset with its .br and .gz, pages.json. */
function writeBuild(dir: string) {
  fs.mkdirSync(path.join(dir, 'assets'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'pages'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), '<title>Réformes</title>');
  fs.writeFileSync(path.join(dir, 'pages/list.html'), '<title>Réformes publiées — Réformes</title><link rel="preload" as="fetch">');
  fs.writeFileSync(path.join(dir, 'pages/list.query.html'), '<title>Réformes publiées — Réformes</title>');
  fs.writeFileSync(path.join(dir, 'pages/detail.html'), '<title>Réforme publiée — Réformes</title>');
  fs.writeFileSync(path.join(dir, 'assets/index-abc123.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'assets/index-abc123.js.br'), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(dir, 'assets/index-abc123.js.gz'), zlib.gzipSync(SCRIPT));
  fs.writeFileSync(
    path.join(dir, 'pages.json'),
    JSON.stringify([
      { paths: ['/', '/accueil'], file: 'pages/list.html', fileWithQuery: 'pages/list.query.html' },
      { paths: ['/accueil/reformes/:id'], file: 'pages/detail.html', fileWithQuery: 'pages/detail.html' },
    ]),
  );
}

describe('the built web app (issue 20)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-web-'));
  // The router options of app.ts: /accueil/ is /accueil.
  const app = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  let web: WebApp | undefined;

  beforeAll(async () => {
    writeBuild(dir);
    web = await registerWebApp(app, dir);
    app.setNotFoundHandler((request, reply) => reply.type('text/html').sendFile(web?.pageFor(request.url) ?? 'index.html'));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('sends the brotli or gzip file the build wrote, as the browser accepts, and says it varies on Accept-Encoding', async () => {
    const url = '/assets/index-abc123.js';
    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);
    const plain = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    for (const response of [br, gz, plain]) {
      expect(response.headers['content-type']).toMatch(/^application\/javascript/);
      expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    }
  });

  it('lets browsers keep hashed assets a year, and revalidate the pages', async () => {
    const asset = await app.inject({ url: '/assets/index-abc123.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await app.inject({ url: '/accueil' });
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.etag ?? page.headers['last-modified']).toBeTruthy();
  });

  it('sends each public screen its own page, without the data preloads when the address has a query, and index.html elsewhere', async () => {
    expect(web?.pageFor('/accueil')).toBe('pages/list.html');
    expect(web?.pageFor('/')).toBe('pages/list.html');
    expect(web?.pageFor('/accueil/')).toBe('pages/list.html');
    expect(web?.pageFor('/accueil?typeref=SECTORIELLE')).toBe('pages/list.query.html');
    expect(web?.pageFor('/accueil/reformes/12')).toBe('pages/detail.html');
    expect(web?.pageFor('/accueil/reformes/12/extra')).toBe('index.html');
    expect(web?.pageFor('/admin/dashboard')).toBe('index.html');
    expect((await app.inject({ url: '/accueil' })).body).toContain('Réformes publiées — Réformes');
    expect((await app.inject({ url: '/admin/users' })).body).toBe('<title>Réformes</title>');
  });

  it('serves the home page and each public page by a route of its own, not by the not-found handler (issue 41)', async () => {
    for (const url of ['/', '/accueil', '/accueil/reformes/:id']) expect(app.hasRoute({ method: 'GET', url })).toBe(true);
    expect(app.hasRoute({ method: 'GET', url: '/admin/dashboard' })).toBe(false);
    // A not-found handler that knows no page: what answers a page is its route.
    const alone = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
    await registerWebApp(alone, dir);
    alone.setNotFoundHandler((_request, reply) => reply.status(404).send('introuvable'));
    await alone.ready();
    try {
      for (const [url, body] of [
        ['/', '<title>Réformes publiées — Réformes</title><link rel="preload" as="fetch">'],
        ['/accueil', '<title>Réformes publiées — Réformes</title><link rel="preload" as="fetch">'],
        ['/accueil/', '<title>Réformes publiées — Réformes</title><link rel="preload" as="fetch">'],
        ['/?page=2', '<title>Réformes publiées — Réformes</title>'],
        ['/accueil/reformes/12', '<title>Réforme publiée — Réformes</title>'],
      ]) {
        const response = await alone.inject({ url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['content-type'], url).toMatch(/^text\/html/);
        expect(response.body, url).toBe(body);
      }
      expect((await alone.inject({ method: 'HEAD', url: '/' })).statusCode).toBe(200);
      expect((await alone.inject({ url: '/admin/dashboard' })).statusCode).toBe(404);
    } finally {
      await alone.close();
    }
  });

  it('serves no web app when there is no build', async () => {
    const empty = Fastify({ logger: false });
    expect(await registerWebApp(empty, path.join(dir, 'missing'))).toBeUndefined();
    await empty.close();
  });
});
