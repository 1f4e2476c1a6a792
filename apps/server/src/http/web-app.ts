import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** `dist/pages.json`, written by the web build (apps/web/build/page-html.ts). */
interface PageManifestEntry {
  paths: string[];
  file: string;
  fileWithQuery: string;
}

interface Page {
  /** The router path, as Fastify reads it too (`:id` one segment). */
  routerPath: string;
  pattern: RegExp;
  file: string;
  fileWithQuery: string;
}

/** The web app's files, served as built; undefined when there is no build (API-only tests, a server without the web app). */
export interface WebApp {
  /** The HTML page for a router path: the screen's own page when the build wrote one, else index.html. */
  pageFor(url: string): string;
}

/** Hashed file names change with their content: a browser may keep them a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, the pages, the favicon) is revalidated on each use (ETag, Last-Modified). */
const REVALIDATE = 'no-cache';

function readPages(webDist: string): Page[] {
  const file = path.join(webDist, 'pages.json');
  if (!fs.existsSync(file)) return [];
  const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as PageManifestEntry[];
  return entries.flatMap((entry) =>
    entry.paths.map((routerPath) => ({
      routerPath,
      pattern: new RegExp(`^${routerPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z]+/gi, '[^/]+')}/?$`),
      file: entry.file,
      fileWithQuery: entry.fileWithQuery,
    })),
  );
}

/**
 * Serves the built web app (issue 20): the brotli or gzip file the build wrote next to each asset, chosen by the
 * request's Accept-Encoding (`Vary: Accept-Encoding`), hashed assets cached for a year, pages revalidated. Each page
 * of `pages.json` (the home page `/` and `/accueil`, a reform's page, sign-in, forgotten password) is a route of its
 * own, GET and HEAD (a trailing slash allowed by the app's router options, app.ts) (issue 41); the not-found handler (app.ts) is left with the back
 * office's paths, which index.html serves.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<WebApp | undefined> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) return undefined;
  const assets = `${path.sep}assets${path.sep}`;
  await app.register(fastifyStatic, {
    root: webDist,
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', filePath.includes(assets) ? IMMUTABLE : REVALIDATE);
    },
  });
  const pages = readPages(webDist);
  for (const page of pages) {
    app.get(page.routerPath, (request, reply) =>
      reply.type('text/html').sendFile(request.url.includes('?') ? page.fileWithQuery : page.file),
    );
  }
  return {
    pageFor(url) {
      const [pathname, query] = url.split('?', 2);
      const page = pages.find((candidate) => candidate.pattern.test(pathname));
      if (!page) return 'index.html';
      return query ? page.fileWithQuery : page.file;
    },
  };
}

export interface OutcomePage {
  /** The address the page answers (the directory's callback, issue 42). */
  path: string;
  /** The built page whose HTML carries the outcome (`/auth/login`): its script reads the element and acts. */
  pagePath: string;
  elementId: string;
  /** Decides the outcome of this request (it may set cookies on the reply); any JSON value. */
  handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

/** JSON inside `<script type="application/json">`: no `<`, `>` or `&` that could close the element or start markup. */
const scriptSafeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/**
 * A page whose HTML the server completes per request (issue 42): the built page (`pagePath`'s file, read once) with
 * the request's outcome inserted as a JSON element before `</body>`, never cached. Without a web build (API-only tests,
 * a server without the web app) the answer is a bare page holding that element alone.
 */
export function registerOutcomePage(app: FastifyInstance, webDist: string, page: OutcomePage): void {
  const pages = readPages(webDist);
  const file = pages.find((candidate) => candidate.pattern.test(page.pagePath))?.file;
  const template = file && fs.existsSync(path.join(webDist, file)) ? fs.readFileSync(path.join(webDist, file), 'utf8') : undefined;
  app.get(page.path, async (request, reply) => {
    const outcome = await page.handle(request, reply);
    const element = `<script type="application/json" id="${page.elementId}">${scriptSafeJson(outcome)}</script>`;
    const html = template?.includes('</body>')
      ? template.replace('</body>', `${element}</body>`)
      : `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Réformes</title></head><body>${element}</body></html>`;
    return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').type('text/html; charset=utf-8').send(html);
  });
}
