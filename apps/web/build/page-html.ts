import path from 'node:path';
import type { PageHead } from '@reformes/domain';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { createServer, type Plugin } from 'vite';
import { html } from '../src/pages/html.ts';
import { type PageEntry, pageName } from './pages.ts';

/** What the server reads to pick a page: `dist/pages.json`. */
export interface PageManifestEntry {
  /** Router paths; `:name` stands for one segment. */
  paths: string[];
  /** The page for an address without a query string. */
  file: string;
  /** The page for an address with one: the same, less the data preloads. */
  fileWithQuery: string;
}

/** The page's title and meta description, in place of index.html's. */
const withHead = (page: string, head: PageHead) =>
  page
    .replace(/<title>[^<]*<\/title>/, () => html`<title>${head.title}</title>`.toString())
    .replace(/<meta name="description" content="[^"]*"/, () => html`<meta name="description" content="${head.description}"`.toString());

function chunkOf(bundle: OutputBundle, root: string, module: string): OutputChunk {
  const id = path.resolve(root, module);
  const chunks = Object.values(bundle).filter((output): output is OutputChunk => output.type === 'chunk');
  const chunk = chunks.find((candidate) => candidate.isEntry && candidate.facadeModuleId === id);
  if (!chunk) throw new Error(`page-html: no entry chunk for ${module}`);
  return chunk;
}

/** A chunk and every chunk it imports statically, transitively. */
function closure(bundle: OutputBundle, start: OutputChunk): OutputChunk[] {
  const seen = new Map<string, OutputChunk>();
  const visit = (chunk: OutputChunk) => {
    if (seen.has(chunk.fileName)) return;
    seen.set(chunk.fileName, chunk);
    for (const file of chunk.imports) visit(bundle[file] as OutputChunk);
  };
  visit(start);
  return [...seen.values()];
}

/** Renders the bodies the pages ask for (src/pages/prerender.ts), in a throwaway SSR server. */
async function renderBodies(root: string, names: string[]): Promise<Map<string, string>> {
  const bodies = new Map<string, string>();
  const server = await createServer({
    root,
    configFile: false,
    appType: 'custom',
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  });
  try {
    const { renderBody } = (await server.ssrLoadModule('/src/pages/prerender.ts')) as { renderBody: (name: string) => string };
    for (const name of names) bodies.set(name, renderBody(name));
  } finally {
    await server.close();
  }
  return bodies;
}

const cssOf = (chunk: OutputChunk) => [
  ...((chunk as OutputChunk & { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? []),
];

/** index.html's head less what Vite added for the back office (its script, preloads and stylesheets). */
function sharedHead(indexHtml: string): string {
  const head = /<head>([\s\S]*)<\/head>/.exec(indexHtml)?.[1] ?? '';
  return head
    .replace(/\s*<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/\s*<link rel="(?:modulepreload|stylesheet)"[^>]*>/g, '')
    .trim();
}

/**
 * One HTML page per screen of `pages`, next to index.html (issue 34): its own title and description, its body drawn
 * at build time, its stylesheet written in, and its one small script with the modules that script imports, plus
 * the first API answers it needs, requested with the page. React and Mantine load only with index.html, the back
 * office's page.
 */
export function pageHtml(pages: PageEntry[], fallback: PageHead): Plugin {
  let root = '';
  let base = '/';
  return {
    name: 'reformes:page-html',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      root = config.root;
      base = config.base;
    },
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') throw new Error('page-html: index.html is not in the bundle');
      // index.html serves every other path: the app's own title and description, from the same source as the pages'.
      index.source = withHead(String(index.source), fallback);
      const head = sharedHead(String(index.source));
      const bodies = await renderBodies(
        root,
        pages.map((page) => page.body),
      );
      const manifest: PageManifestEntry[] = [];
      for (const page of pages) {
        const entry = chunkOf(bundle, root, page.entry);
        const chunks = closure(bundle, entry);
        const css = [...new Set(chunks.flatMap(cssOf))].map((file) => {
          const asset = bundle[file];
          if (asset?.type !== 'asset') throw new Error(`page-html: no stylesheet ${file}`);
          return `<style>${String(asset.source).replaceAll('</style', '<\\/style')}</style>`;
        });
        const scripts = [
          `<script type="module" crossorigin src="${base}${entry.fileName}"></script>`,
          ...chunks.slice(1).map((chunk) => `<link rel="modulepreload" crossorigin href="${base}${chunk.fileName}">`),
        ];
        const data = (page.data ?? []).map((url) => html`<link rel="preload" as="fetch" crossorigin href="${url}">`.toString());
        const render = (extra: string[]) =>
          [
            '<!doctype html>',
            '<html lang="fr">',
            '<head>',
            withHead(head, page.head),
            ...css,
            ...scripts,
            ...extra,
            '</head>',
            `<body>${bodies.get(page.body) ?? ''}</body>`,
            '</html>',
            '',
          ].join('\n');
        const name = pageName(page);
        const file = `pages/${name}.html`;
        const fileWithQuery = data.length > 0 ? `pages/${name}.query.html` : file;
        this.emitFile({ type: 'asset', fileName: file, source: render(data) });
        if (fileWithQuery !== file) this.emitFile({ type: 'asset', fileName: fileWithQuery, source: render([]) });
        manifest.push({ paths: page.paths, file, fileWithQuery });
      }
      this.emitFile({ type: 'asset', fileName: 'pages.json', source: `${JSON.stringify(manifest, null, 2)}\n` });
    },
  };
}

/** `/accueil/reformes/:id` as a regular expression of the whole path, a trailing slash allowed (as the server's web-app.ts). */
const pathPattern = (routerPath: string) =>
  new RegExp(`^${routerPath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[a-z]+/gi, '[^/]+')}/?$`);

/**
 * `npm run dev:web`: the public screens' pages as the build writes them, drawn on each request, their script served by
 * Vite; without this the dev server would send index.html, whose router only says "Chargement..." there (issue 34).
 */
export function pageDevServer(pages: PageEntry[], fallback: PageHead): Plugin {
  return {
    name: 'reformes:page-dev-server',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use(async (request, response, next) => {
        const [pathname] = (request.url ?? '/').split('?');
        const page =
          request.method === 'GET'
            ? pages.find((entry) => entry.paths.some((routerPath) => pathPattern(routerPath).test(pathname)))
            : undefined;
        if (!page || !request.headers.accept?.includes('text/html')) return next();
        try {
          const { renderBody } = (await server.ssrLoadModule('/src/pages/prerender.ts')) as { renderBody: (name: string) => string };
          const head = withHead(html`<title>${fallback.title}</title><meta name="description" content="">`.toString(), page.head);
          const document = `<!doctype html>\n<html lang="fr">\n<head>\n<meta charset="UTF-8">\n<meta name="viewport" content="width=device-width, initial-scale=1.0">\n${head}\n<script type="module" src="/${page.entry}"></script>\n</head>\n<body>${renderBody(page.body)}</body>\n</html>\n`;
          response.setHeader('Content-Type', 'text/html; charset=utf-8');
          response.end(await server.transformIndexHtml(request.url ?? '/', document));
        } catch (error) {
          next(error);
        }
      });
    },
  };
}
