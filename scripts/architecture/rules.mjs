// The architecture's rules as checks (issue 30): each rule reads a checkout and returns its breaches, so that
// `npm run lint` fails on them and a test proves each rule by a deliberate violation (architecture.test.mjs).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SOURCE = /\.(ts|tsx|mjs)$/;
const TEST = /\.test\.(ts|tsx|mjs)$/;

/** Every source file under `dir` (relative to `root`), node_modules and builds aside. */
export function sourceFiles(root, dir) {
  const files = [];
  const walk = (path) => {
    if (!existsSync(path)) return;
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (['node_modules', 'dist', 'migrations'].includes(entry.name)) continue;
      const child = join(path, entry.name);
      if (entry.isDirectory()) walk(child);
      else if (SOURCE.test(entry.name)) files.push(relative(root, child));
    }
  };
  walk(join(root, dir));
  return files.sort();
}

/** The code without its comments (a comment may quote an import). */
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/** The relative imports of a file (static, dynamic and `export … from`), resolved to paths relative to `root`. */
export function importsOf(root, file) {
  const text = withoutComments(readFileSync(join(root, file), 'utf8'));
  const found = new Set();
  for (const [, specifier] of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
    let target = resolve(dirname(join(root, file)), specifier);
    if (existsSync(target) && statSync(target).isDirectory()) target = join(target, 'index.ts');
    found.add(relative(root, target));
  }
  return [...found];
}

// --- Web layers: app/ -> features/<one>/ -> components/, api/, session/ -> @reformes/domain; test helpers in test/.
const WEB = 'apps/web/src';
const LOWER = ['components', 'api', 'session'];

function webBreach(from, to) {
  const [fromLayer, fromFeature] = from.split('/');
  const [toLayer, toFeature] = to.split('/');
  if (fromLayer === 'features' && toLayer === 'app') return 'a feature imports app/';
  if (fromLayer === 'features' && toLayer === 'features' && toFeature !== fromFeature) return 'a feature imports another feature';
  if (LOWER.includes(fromLayer) && (toLayer === 'app' || toLayer === 'features')) return `${fromLayer}/ imports ${toLayer}/`;
  if (toLayer !== 'test' && /(fixtures|fake-api)\.tsx?$/.test(to)) return 'a test helper outside test/';
  // Any folder named test/ (the web's helpers, or another workspace's reached by a relative path), as Biome's `**/test/**` was.
  if (/(^|\/)test\//.test(to) && fromLayer !== 'test' && !TEST.test(from)) return 'test/ imported outside a test';
  return undefined;
}

/** Imports of apps/web/src against its layers, on resolved paths (a file three folders deep is no exception). */
export function webLayers(root) {
  const breaches = [];
  const base = join(root, WEB);
  for (const file of sourceFiles(root, WEB)) {
    for (const target of importsOf(root, file)) {
      const why = webBreach(relative(base, join(root, file)), relative(base, join(root, target)));
      if (why) breaches.push(`${why}: ${file} -> ${target}`);
    }
  }
  return breaches;
}

// --- Server layers (issue 41): main.ts, cli/ -> app.ts -> modules/ -> http/, jobs/, storage/, mail/ -> db/ -> config.ts.
// An import only goes down. The four infrastructure folders may import each other, but their folders form no circle
// (today: jobs/ -> http/, for the request being served). Test helpers (test/) may import anything and are imported
// only by tests; a *.test.ts may import anything of the server.
const SERVER_RANKS = { main: 6, cli: 6, app: 5, modules: 4, http: 3, jobs: 3, storage: 3, mail: 3, db: 2, config: 1 };

/** The layer of a path relative to apps/server/src: its first folder, or a top-level file's name (`app.ts` -> `app`). */
const serverLayerOf = (path) => path.split('/')[0].replace(/\.ts$/, '');

function serverBreach(from, to) {
  const [fromLayer, toLayer] = [serverLayerOf(from), serverLayerOf(to)];
  if (toLayer === 'test') return fromLayer === 'test' || TEST.test(from) ? undefined : 'test/ imported outside a test';
  if (fromLayer === 'test' || TEST.test(from) || fromLayer === toLayer) return undefined;
  const [fromRank, toRank] = [SERVER_RANKS[fromLayer], SERVER_RANKS[toLayer]];
  if (fromRank !== undefined && toRank !== undefined && toRank > fromRank) return `${fromLayer} imports ${toLayer} (up)`;
  return undefined;
}

/** Tarjan's strongly connected components of a graph (Map of node -> nodes), each of two nodes or more, or a node on itself. */
function circlesOf(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node), low.get(next)));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node), index.get(next)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) circles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

/** Imports of apps/server/src against its layers, on resolved paths. */
export function serverLayers(root) {
  const breaches = [];
  const base = join(root, SERVER);
  const siblings = new Map();
  for (const file of sourceFiles(root, SERVER)) {
    const from = relative(base, join(root, file));
    if (!TEST.test(from) && !from.endsWith('.d.ts') && !['test', ...Object.keys(SERVER_RANKS)].includes(serverLayerOf(from))) {
      breaches.push(`a file in no server layer (add its folder to SERVER_RANKS): ${file}`);
    }
    for (const target of importsOf(root, file)) {
      if (!target.startsWith(`${SERVER}/`)) continue;
      const to = relative(base, join(root, target));
      const why = serverBreach(from, to);
      if (why) breaches.push(`${why}: ${file} -> ${target}`);
      const [fromLayer, toLayer] = [serverLayerOf(from), serverLayerOf(to)];
      if (!why && !TEST.test(from) && fromLayer !== toLayer && SERVER_RANKS[fromLayer] === 3 && SERVER_RANKS[toLayer] === 3) {
        siblings.set(fromLayer, [...new Set([...(siblings.get(fromLayer) ?? []), toLayer])]);
        siblings.set(toLayer, siblings.get(toLayer) ?? []);
      }
    }
  }
  for (const folders of circlesOf(siblings)) breaches.push(`a circle between infrastructure folders: ${folders.join('/ <-> ')}/`);
  return breaches;
}

// --- Server routes get services: no database handle, no transaction, no Drizzle in a file that declares routes, and
// every route comes from the domain's route table (packages/domain/src/routes), registered with `on(...)`.
const SERVER = 'apps/server/src';
const ROUTE_FILE = /routes\.ts$/;
const DATABASE_IN_ROUTES = [
  [/from\s+['"]drizzle-orm/, 'imports drizzle-orm'],
  [/from\s+['"][./]*(?:\.\.\/)*db\/(?!.*\.test)/, 'imports the database layer (db/)'],
  [/\.transaction\s*\(/, 'opens a transaction'],
  [/\bsql`/, 'writes SQL'],
  [/\{\s*[^}]*\bdb\b[^}]*\}\s*\)\s*=>|<\s*\{[^>]*\bdb\s*:/, 'is handed the database (`db`)'],
  [/\b(?:app|api|instance)\.(?:get|post|put|patch|delete|route)\s*\(/, 'declares a route outside the route table (use `on(ROUTES.x, …)`)'],
];

export function serverRoutes(root) {
  const breaches = [];
  for (const file of sourceFiles(root, SERVER).filter((path) => ROUTE_FILE.test(path) && !TEST.test(path))) {
    const text = withoutComments(readFileSync(join(root, file), 'utf8'));
    for (const [pattern, why] of DATABASE_IN_ROUTES) if (pattern.test(text)) breaches.push(`a route file ${why}: ${file}`);
  }
  return breaches;
}

// --- Every answer shape lives in packages/domain/src/shapes/.
const DOMAIN = 'packages/domain/src';

/** The `response: { … }` objects of a file, braces matched. */
function responseBlocks(text) {
  const blocks = [];
  for (const match of text.matchAll(/\bresponse\s*:\s*\{/g)) {
    let depth = 0;
    for (let index = match.index + match[0].length - 1; index < text.length; index++) {
      if (text[index] === '{') depth++;
      else if (text[index] === '}' && --depth === 0) {
        blocks.push(text.slice(match.index, index + 1));
        break;
      }
    }
  }
  return blocks;
}

export function shapesInDomain(root) {
  const breaches = [];
  for (const file of sourceFiles(root, DOMAIN).filter((path) => !TEST.test(path) && !path.includes('/shapes/'))) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, name] of text.matchAll(/export\s+const\s+(\w+(?:Shape|Answer))\b/g)) {
      breaches.push(`an answer shape outside packages/domain/src/shapes/: ${name} in ${file}`);
    }
  }
  for (const file of sourceFiles(root, SERVER).filter((path) => !TEST.test(path))) {
    const text = readFileSync(join(root, file), 'utf8');
    for (const [, name] of text.matchAll(/\bconst\s+(\w+(?:Shape|Answer))\s*=/g)) {
      breaches.push(`an answer shape defined in the server: ${name} in ${file}`);
    }
    if (responseBlocks(text).some((block) => /\bz\./.test(block))) breaches.push(`an answer shape written inline in a route: ${file}`);
  }
  return breaches;
}

// --- No import circle, anywhere in the sources.
export function importCircles(root, dirs = [DOMAIN, SERVER, WEB, 'e2e', 'scripts']) {
  const graph = new Map();
  for (const dir of dirs) for (const file of sourceFiles(root, dir)) graph.set(file, importsOf(root, file));
  const circles = circlesOf(graph);
  return circles.map((files) => `an import circle: ${files.join(' <-> ')}`);
}

export const RULES = {
  'web layers': webLayers,
  'server layers': serverLayers,
  'server routes get services': serverRoutes,
  'answer shapes in packages/domain/src/shapes': shapesInDomain,
  'no import circle': importCircles,
};
