// The styles stay with the entry: the pages the server sends carry them inline (apps/web/build/page-html.ts).
import './app/public-styles.css';
import './app/focus.css';

/** Asks for every chunk the page lists (`#app-chunks`, APP_CHUNKS_ID in build/page-html.ts), all at once, before any is imported. */
function preloadListedChunks(): void {
  const list = document.getElementById('app-chunks')?.textContent;
  for (const href of list ? (JSON.parse(list) as string[]) : []) {
    const link = Object.assign(document.createElement('link'), { rel: 'modulepreload', href, crossOrigin: '' });
    document.head.append(link);
  }
}

/**
 * Over a page that holds a drawn frame (app/prerender.tsx), the browser paints it first; then the app's chunks are
 * asked for, together, and the app runs. On a slow phone the frame shows while they download, instead of after
 * them (issue 20). Elsewhere the app starts at once, its chunks preloaded by index.html.
 */
const hasFrame = document.getElementById('root')?.hasChildNodes() ?? false;
if (hasFrame) {
  await new Promise((painted) => requestAnimationFrame(() => setTimeout(painted, 0)));
  preloadListedChunks();
}
await import('./app/start.tsx');
