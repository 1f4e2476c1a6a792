// Counts the imports of apps/web/src that run against its layers (README, "Layers"):
// app/ -> features/<one>/ -> components/, api/, session/ -> @reformes/domain; test helpers only in test/.
// Usage: node scripts/web-layers.mjs [--list]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../apps/web/src');
const LOWER = ['components', 'api', 'session'];

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.tsx?$/.test(entry.name)) yield path;
  }
}

/** Why `from` may not import `to` (paths relative to src), or undefined when it may. */
function breach(from, to) {
  const [fromLayer, fromFeature] = from.split('/');
  const [toLayer, toFeature] = to.split('/');
  if (fromLayer === 'features' && toLayer === 'app') return 'feature -> app';
  if (fromLayer === 'features' && toLayer === 'features' && toFeature !== fromFeature) return 'feature -> other feature';
  if (LOWER.includes(fromLayer) && (toLayer === 'app' || toLayer === 'features')) return `${fromLayer} -> ${toLayer}`;
  if (toLayer !== 'test' && /(fixtures|fake-api)\.tsx?$/.test(to)) return 'test helper outside test/';
  if (toLayer === 'test' && fromLayer !== 'test' && !/\.test\.tsx?$/.test(from)) return 'test/ imported outside a test';
  return undefined;
}

const found = [];
let total = 0;
for (const path of sourceFiles(src)) {
  const from = relative(src, path);
  for (const [, specifier] of readFileSync(path, 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    total++;
    const to = relative(src, resolve(dirname(path), specifier));
    const why = breach(from, to);
    if (why) found.push({ from, to, why });
  }
}
if (process.argv.includes('--list')) for (const { from, to, why } of found) console.log(`${why}: ${from} -> ${to}`);
const byKind = new Map();
for (const { why } of found) byKind.set(why, (byKind.get(why) ?? 0) + 1);
for (const [why, count] of byKind) console.log(`${String(count).padStart(4)}  ${why}`);
const inTests = found.filter(({ from }) => /\.test\.tsx?$/.test(from)).length;
console.log(`${found.length} backward imports (${inTests} of them in tests) out of ${total} relative imports in apps/web/src`);
process.exitCode = found.length > 0 ? 1 : 0;
