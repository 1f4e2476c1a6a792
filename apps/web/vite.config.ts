import { fileURLToPath } from 'node:url';
import { PAGE_HEADS } from '@reformes/domain';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pageDevServer, pageHtml } from './build/page-html.ts';
import { PAGES, pageInputs } from './build/pages.ts';
import { precompress } from './build/precompress.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react(), pageHtml(PAGES, PAGE_HEADS.default), pageDevServer(PAGES, PAGE_HEADS.default), precompress()],
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      // The back office (index.html), and the small script of each public page (build/pages.ts, issue 34).
      input: { index: fileURLToPath(new URL('index.html', import.meta.url)), ...pageInputs(PAGES, root) },
      output: {
        codeSplitting: {
          // What every back-office screen runs, in one file: split by chance into a dozen small chunks, it cost a request each.
          groups: [{ name: 'framework', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack)[\\/]/ }],
        },
      },
    },
  },
});
