/**
 * Compiles the server to plain JavaScript in apps/server/dist (gitignored), so that production runs
 * `node apps/server/dist/main.js` with no TypeScript loader and no esbuild process at runtime.
 *
 * - One ES module per entry point (server, the CLIs) plus shared chunks, all in dist/
 *   itself: code that finds a file next to itself with `new URL('./x', import.meta.url)` (the PGlite
 *   migrations) finds it beside the bundle as it found it beside its source in src/db/.
 * - Our own sources and @reformes/domain (published as TypeScript) are bundled; every other package
 *   stays external and is loaded from node_modules as usual (native addons, WASM, assets by URL).
 * - The committed migrations (SQL + drizzle meta) are copied to dist/migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { IMAGE_EXTERNALS } from './image-externals.mjs';

const serverDir = fileURLToPath(new URL('..', import.meta.url));
// `--outdir <folder>`: a build of its own (tests that start the compiled server), leaving dist/ alone.
const outdirArgument = process.argv.indexOf('--outdir');
const outdir = outdirArgument === -1 ? path.join(serverDir, 'dist') : path.resolve(process.argv[outdirArgument + 1]);
const src = (file) => path.join(serverDir, 'src', file);

// `--bundle-dependencies` (the container image, Containerfile): every package is bundled but those of
// IMAGE_EXTERNALS, so that the image ships a few megabytes of JavaScript instead of node_modules.
const bundleDependencies = process.argv.includes('--bundle-dependencies');
const isImageExternal = (specifier) => IMAGE_EXTERNALS.some((name) => specifier === name || specifier.startsWith(`${name}/`));

/** Bare imports stay external (node_modules), except our workspace packages, which ship TypeScript sources. */
const externalPackages = {
  name: 'external-packages',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('@reformes/')) return undefined;
      if (bundleDependencies && !args.path.startsWith('node:') && !isImageExternal(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const startedAt = Date.now();
fs.rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    main: src('main.ts'),
    // The import's reading runs in a worker thread with its own memory cap (modules/reformes/import-file.ts).
    'import-worker': src('modules/reformes/import-worker.ts'),
    'create-admin': src('cli/create-admin.ts'),
    restore: src('cli/restore.ts'),
    'copy-documents': src('cli/copy-documents.ts'),
    'migrate-to-postgres': src('cli/migrate-to-postgres.ts'),
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  sourcemap: 'linked',
  plugins: [externalPackages],
  // Bundled CommonJS packages call require(); an ES module has none of its own.
  banner: bundleDependencies
    ? { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" }
    : {},
  logLevel: 'warning',
});
fs.cpSync(src('db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
console.log(`Serveur compilé dans ${path.relative(path.join(serverDir, '..', '..'), outdir)} (${Date.now() - startedAt} ms).`);
