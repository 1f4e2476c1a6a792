import path from 'node:path';
import type { PageHead } from '@reformes/domain';
import react from '@vitejs/plugin-react';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { createServer, type Plugin } from 'vite';
import type { PageEntry } from './pages.ts';

/** The element of a framed page that lists the app's chunks, read by src/main.tsx. */
export const APP_CHUNKS_ID = 'app-chunks';

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
const withHead = (html: string, head: PageHead) =>
  html
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(head.title)}</title>`)
    .replace(/<meta name="description" content="[^"]*"/, `<meta name="description" content="${escapeHtml(head.description)}"`);

function escapeHtml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function chunkOf(bundle: OutputBundle, root: string, module: string): OutputChunk {
  const id = path.resolve(root, module);
  const chunks = Object.values(bundle).filter((output): output is OutputChunk => output.type === 'chunk');
  const chunk = chunks.find((candidate) => candidate.facadeModuleId === id) ?? chunks.find((candidate) => candidate.moduleIds.includes(id));
  if (!chunk) throw new Error(`page-html: no chunk holds ${module}`);
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

/** Renders the frames the pages ask for with the app's own components (src/app/prerender.tsx), in a throwaway SSR server. */
async function renderFrames(root: string, names: string[]): Promise<Map<string, string>> {
  const frames = new Map<string, string>();
  if (names.length === 0) return frames;
  const server = await createServer({
    root,
    configFile: false,
    plugins: [react()],
    appType: 'custom',
    logLevel: 'error',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
  });
  try {
    const { renderFrame } = (await server.ssrLoadModule('/src/app/prerender.tsx')) as { renderFrame: (name: string) => string };
    for (const name of names) frames.set(name, renderFrame(name));
  } finally {
    await server.close();
  }
  return frames;
}

/**
 * The entry's stylesheets written into the page: a linked sheet holds the first paint until it arrives, one round
 * trip after the page, whereas the page alone can then be painted (its frame) while the scripts download.
 */
function inlineStyles(html: string, bundle: OutputBundle, base: string): string {
  return html.replace(/<link rel="stylesheet" crossorigin href="([^"]+)">/g, (link, href: string) => {
    const asset = bundle[href.slice(base.length)];
    return asset?.type === 'asset' ? `<style>${String(asset.source).replaceAll('</style', '<\\/style')}</style>` : link;
  });
}

/**
 * A frame shown only once the browser has read all of it: painted half-read (the parser pauses in long pages), the
 * sign-in card would grow and move while it is centred, a layout shift. The rule that shows it comes after it.
 */
const framed = (frame: string) => `<style>[data-frame]{visibility:hidden}</style>${frame}<style>[data-frame]{visibility:visible}</style>`;

const cssOf = (chunk: OutputChunk) => [
  ...((chunk as OutputChunk & { viteMetadata?: { importedCss: Set<string> } }).viteMetadata?.importedCss ?? []),
];

/**
 * One HTML page per screen of `pages`, next to index.html: its own title and description, and its chunks, styles
 * and first API answers requested with the entry instead of one after the other (issue 20, "critical path").
 */
export function pageHtml(pages: PageEntry[], fallback: PageHead, start: string): Plugin {
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
      const html = String(index.source);
      const entry = Object.values(bundle).find((output): output is OutputChunk => output.type === 'chunk' && output.isEntry);
      if (!entry) throw new Error('page-html: no entry chunk');
      // The entry waits for a paint, then imports the app (src/main.tsx): every page preloads the app's chunks.
      const entryChunks = new Set(closure(bundle, entry).map((chunk) => chunk.fileName));
      const appChunks = closure(bundle, chunkOf(bundle, root, start)).filter((chunk) => !entryChunks.has(chunk.fileName));
      const loaded = new Set([...entryChunks, ...appChunks.map((chunk) => chunk.fileName)]);
      const loadedCss = new Set([...closure(bundle, entry), ...appChunks].flatMap(cssOf));
      const preloads = (chunks: OutputChunk[]) =>
        chunks.map((chunk) => `<link rel="modulepreload" crossorigin href="${base}${chunk.fileName}">`);
      const styleLinks = (files: string[]) => files.map((file) => `<link rel="stylesheet" crossorigin href="${base}${file}">`);
      const appStyles = styleLinks([...new Set(appChunks.flatMap(cssOf))]);
      const appLinks = [...appStyles, ...preloads(appChunks)];
      index.source = html.replace('</head>', `  ${appLinks.join('\n    ')}\n  </head>`);
      const manifest: PageManifestEntry[] = [];
      const frames = await renderFrames(
        root,
        pages.flatMap((page) => (page.frame ? [page.frame] : [])),
      );

      for (const page of pages) {
        const chunks = closure(bundle, chunkOf(bundle, root, page.module)).filter((chunk) => !loaded.has(chunk.fileName));
        const styles = [...new Set(chunks.flatMap(cssOf))].filter((file) => !loadedCss.has(file));
        // Over a frame the page is painted first and the app's code asked for right after (src/main.tsx reads the
        // list): a phone spends its first round trips on the page, not on scripts that cannot show anything sooner.
        const scripts = [...appChunks, ...chunks];
        const links = page.frame
          ? [
              ...appStyles,
              ...styleLinks(styles),
              `<script type="application/json" id="${APP_CHUNKS_ID}">${JSON.stringify(scripts.map((chunk) => `${base}${chunk.fileName}`))}</script>`,
            ]
          : [...appLinks, ...styleLinks(styles), ...preloads(chunks)];
        const data = (page.data ?? []).map((url) => `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(url)}">`);
        const render = (extra: string[]) =>
          withHead(inlineStyles(html, bundle, base), page.head)
            .replace('</head>', `  ${[...links, ...extra].join('\n    ')}\n  </head>`)
            .replace('<div id="root"></div>', `<div id="root">${page.frame ? framed(frames.get(page.frame) ?? '') : ''}</div>`);
        const name = page.module.replace(/^.*\//, '').replace(/\.tsx?$/, '');
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
