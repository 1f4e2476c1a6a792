// The architecture's rules as checks (issue 30): each rule reads a checkout and returns its breaches, so that
// `npm run lint` fails on them and a test proves each rule by a deliberate violation (architecture.test.mjs).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { migrationsExpandOnly } from './migrations.mjs';

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

// --- The lower web layer, ordered (issue 41): components/ -> api/ -> session/. components/ may import api/ and
// session/, api/ only session/, session/ neither; none of the three imports app/, features/ or pages/. Tests included:
// a test of session/ is a test of session/ alone (its helpers come from test/).
const LOWER_MAY_IMPORT = { components: ['api', 'session'], api: ['session'], session: [] };
const ABOVE_LOWER = ['app', 'features', 'pages', ...LOWER];

export function webLowerOrder(root) {
  const breaches = [];
  const base = join(root, WEB);
  for (const file of sourceFiles(root, WEB)) {
    const [fromLayer] = relative(base, join(root, file)).split('/');
    if (!Object.hasOwn(LOWER_MAY_IMPORT, fromLayer)) continue;
    for (const target of importsOf(root, file)) {
      const [toLayer] = relative(base, join(root, target)).split('/');
      if (toLayer === fromLayer || !ABOVE_LOWER.includes(toLayer) || LOWER_MAY_IMPORT[fromLayer].includes(toLayer)) continue;
      breaches.push(`${fromLayer}/ imports ${toLayer}/ (components -> api -> session): ${file} -> ${target}`);
    }
  }
  return breaches;
}

// --- The public pages' room (issue 41): apps/web/src/pages/, the four prerendered pages, their scripts and markup.
// Without React, Mantine or TanStack by construction: no file of pages/ reaches them, through any chain of relative
// imports (the plain modules it shares with the back office, api/client.ts, session/session.ts, french-format.ts,
// are allowed as long as they stay plain); pages/ imports neither app/ nor features/. Nothing else imports pages/,
// except tests (the build, apps/web/build/, is outside src/). `innerHTML` is written in no file of apps/web/src
// outside pages/, tests included.
const PAGES = 'pages';
const UI_PACKAGE = /^(?:(?:react|react-dom|react-router|react-hook-form)(?:\/|$)|@mantine\/|@tanstack\/|@tabler\/|@hookform\/)/;

/** The packages a file imports by name (`react`, `@mantine/core`…), static, dynamic or re-exported. */
function packagesOf(root, file) {
  const text = withoutComments(readFileSync(join(root, file), 'utf8'));
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"]([^./'"][^'"]*)['"]/g)].map(([, name]) => name);
}

export function pagesRoom(root) {
  const breaches = [];
  const base = join(root, WEB);
  const layerOf = (path) => relative(base, join(root, path)).split('/')[0];
  for (const file of sourceFiles(root, WEB)) {
    const inPages = layerOf(file) === PAGES;
    if (!inPages && /\binnerHTML\b/.test(readFileSync(join(root, file), 'utf8'))) breaches.push(`innerHTML outside pages/: ${file}`);
    if (!inPages) {
      if (TEST.test(file)) continue;
      for (const target of importsOf(root, file))
        if (layerOf(target) === PAGES) breaches.push(`pages/ imported from outside: ${file} -> ${target}`);
      continue;
    }
    if (TEST.test(file)) continue;
    for (const target of importsOf(root, file)) {
      if (['app', 'features'].includes(layerOf(target))) breaches.push(`pages/ imports ${layerOf(target)}/: ${file} -> ${target}`);
    }
    // Every file the page's script reaches, and the UI packages any of them names.
    const seen = new Set([file]);
    const queue = [[file, []]];
    while (queue.length > 0) {
      const [current, chain] = queue.shift();
      for (const name of packagesOf(root, current)) {
        if (UI_PACKAGE.test(name)) breaches.push(`pages/ reaches ${name}: ${[...chain, current].join(' -> ')}`);
      }
      for (const target of importsOf(root, current)) {
        if (seen.has(target) || !existsSync(join(root, target)) || !SOURCE.test(target)) continue;
        seen.add(target);
        queue.push([target, [...chain, current]]);
      }
    }
  }
  return [...new Set(breaches)];
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
];

/** A file that declares routes: it imports the route table (http/route-table.ts), whatever its name, or is named *routes.ts. */
const declaresRoutes = (root, file) => ROUTE_FILE.test(file) || importsOf(root, file).includes(`${SERVER}/http/route-table.ts`);

export function serverRoutes(root) {
  const breaches = [];
  for (const file of sourceFiles(root, SERVER).filter((path) => !TEST.test(path) && declaresRoutes(root, path))) {
    const text = withoutComments(readFileSync(join(root, file), 'utf8'));
    for (const [pattern, why] of DATABASE_IN_ROUTES) if (pattern.test(text)) breaches.push(`a route file ${why}: ${file}`);
  }
  return breaches;
}

// --- A route is registered by the route table alone (issue 41): any Fastify registration call, `.route({…})` or
// `.get(path, …, handler)` and the other verbs, in any file of apps/server/src, whatever its name, is a breach outside
// these files. (Plugins registered with `app.register` bring their own routes: @fastify/static in http/web-app.ts, the
// built web app's files; @fastify/swagger-ui in http/api-docs.ts, /api/docs; app-routes.test.ts checks at run time
// that every /api/v1 route is an entry of the domain's table with that entry's answer shape.)
export const ROUTE_REGISTRARS = {
  'http/route-table.ts': "the route table's `on(spec, handler)`: registers the domain's entries (packages/domain/src/routes)",
  'http/metrics.ts':
    'GET /metrics, the Prometheus scrape: no API route (its own token, no session, not called by the web app, hidden from OpenAPI)',
  'http/web-app.ts':
    "the built web app: each prerendered page of pages.json is a GET route of its own (the home page `/` first), and the page the server completes per request (the directory's callback, `registerOutcomePage`, issue 42); no API route",
};
const VERBS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'all'];

/** The arguments of the call whose `(` is at `open`, split at top-level commas (strings and nesting skipped). */
function callArguments(text, open) {
  const args = [];
  let depth = 0;
  let start = open + 1;
  for (let index = open; index < text.length; index++) {
    const char = text[index];
    if (char === "'" || char === '"' || char === '`') {
      const end = text.indexOf(char, index + 1);
      if (end < 0) break;
      index = end;
    } else if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char)) {
      if (--depth === 0) {
        args.push(text.slice(start, index).trim());
        break;
      }
    } else if (char === ',' && depth === 1) {
      args.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  return args.filter((arg) => arg !== '');
}

const HANDLER = /^(?:async\b|function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)/;

/** The Fastify route registrations of a text: `x.route({ url… })`, or `x.get(path, [options,] handler)`. */
export function routeRegistrations(text) {
  const found = [];
  for (const match of withoutComments(text).matchAll(/\.(route|get|post|put|patch|delete|head|options|all)\s*\(/g)) {
    const args = callArguments(match.input, match.index + match[0].length - 1);
    const [verb] = [match[1]];
    if (verb === 'route' && args.length === 1 && /^\{[\s\S]*\b(?:url|handler)\b/.test(args[0])) found.push('.route({…})');
    else if (
      VERBS.includes(verb) &&
      args.length >= 2 &&
      (HANDLER.test(args.at(-1)) || args.slice(1).some((arg) => /^\{[\s\S]*\bhandler\s*[:(]/.test(arg)))
    ) {
      found.push(`.${verb}(${args[0].slice(0, 40)}, …)`);
    }
  }
  return found;
}

export function routesFromTable(root) {
  const breaches = [];
  const base = join(root, SERVER);
  for (const file of sourceFiles(root, SERVER).filter((path) => !TEST.test(path))) {
    if (Object.hasOwn(ROUTE_REGISTRARS, relative(base, join(root, file)))) continue;
    for (const call of routeRegistrations(readFileSync(join(root, file), 'utf8'))) {
      breaches.push(`a route registered outside the route table (use \`on(ROUTES.x, …)\`, http/route-table.ts): ${call} in ${file}`);
    }
  }
  return breaches;
}

// --- Every answer shape lives in packages/domain/src/shapes/.
const DOMAIN = 'packages/domain/src';

/** The names a file imports, each with its source resolved (relative to `root`) or kept as a package name. */
function importedNames(root, file, text) {
  const names = new Map();
  for (const [, list, specifier] of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)) {
    const source = specifier.startsWith('.') ? relative(root, resolve(dirname(join(root, file)), specifier)) : specifier;
    for (const item of list.split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .at(-1);
      if (name) names.set(name, source);
    }
  }
  return names;
}

/** The expression at `index` (after `answer:`, or a constant's `=`), up to the first top-level `,`, `;`, line end or closing brace. */
function answerExpression(text, index) {
  let depth = 0;
  for (let end = index; end < text.length; end++) {
    const char = text[end];
    if ('([{'.includes(char)) depth++;
    else if (')]}'.includes(char) && depth-- === 0) return text.slice(index, end).trim();
    else if ((char === ',' || char === ';' || char === '\n') && depth === 0) return text.slice(index, end).trim();
  }
  return text.slice(index).trim();
}

/**
 * Why the answer expression `expression` of `file` is not made of shapes/ alone, or undefined: it writes a zod schema
 * (`z.`), or names something imported from elsewhere than packages/domain/src/shapes/; a local constant is followed
 * (`const list = listShape(row)`), a parameter passes (its caller's argument is checked where it is written).
 */
function answerBreach(expression, names, text, seen = new Set()) {
  if (/\bz\s*\./.test(expression)) return `written on the spot (\`${expression.slice(0, 60)}\`)`;
  for (const [identifier] of expression.matchAll(/(?<![.\w$])[A-Za-z_$][\w$]*/g)) {
    if (seen.has(identifier)) continue;
    seen.add(identifier);
    const source = names.get(identifier);
    if (source !== undefined) {
      if (!source.startsWith(`${DOMAIN}/shapes/`)) return `\`${identifier}\` comes from ${source}, not from ${DOMAIN}/shapes/`;
      continue;
    }
    const local = text.match(new RegExp(`\\b(?:const|let|var)\\s+${identifier.replace('$', '\\$')}\\s*=\\s*`));
    if (local) {
      const why = answerBreach(answerExpression(text, local.index + local[0].length), names, text, seen);
      if (why) return why;
    }
  }
  return undefined;
}

/**
 * Every answer shape lives in packages/domain/src/shapes/ (issue 41: structurally, whatever its name): every `answer:`
 * of a route entry outside shapes/ is built of shapes/ exports only; the server sets no `response` schema of its own
 * (the route table registers each entry's `answer`, app-routes.test.ts checks it at run time). The names are still
 * read: an exported `…Shape`/`…Answer` outside shapes/, a `const …Shape` in the server.
 */
export function shapesInDomain(root) {
  const breaches = [];
  for (const file of sourceFiles(root, DOMAIN).filter((path) => !TEST.test(path) && !path.includes('/shapes/'))) {
    const text = withoutComments(readFileSync(join(root, file), 'utf8'));
    for (const [, name] of text.matchAll(/export\s+const\s+(\w+(?:Shape|Answer))\b/g)) {
      breaches.push(`an answer shape outside packages/domain/src/shapes/: ${name} in ${file}`);
    }
    const names = importedNames(root, file, text);
    for (const match of text.matchAll(/\banswer\s*:\s*/g)) {
      const why = answerBreach(answerExpression(text, match.index + match[0].length), names, text);
      if (why) breaches.push(`an answer not built from packages/domain/src/shapes/, ${why}: ${file}`);
    }
  }
  const base = join(root, SERVER);
  for (const file of sourceFiles(root, SERVER).filter((path) => !TEST.test(path))) {
    const text = withoutComments(readFileSync(join(root, file), 'utf8'));
    for (const [, name] of text.matchAll(/\bconst\s+(\w+(?:Shape|Answer))\s*=/g)) {
      breaches.push(`an answer shape defined in the server: ${name} in ${file}`);
    }
    if (Object.hasOwn(RESPONSE_WRITERS, relative(base, join(root, file)))) continue;
    if (/[{,]\s*response\s*:|\.response\s*=(?!=)/.test(text))
      breaches.push(`an answer shape set by the server, not the route table: ${file}`);
  }
  return breaches;
}

/** The server files that may write a route's `response`, each with why. */
export const RESPONSE_WRITERS = {
  'http/route-table.ts': "sets each entry's `answer` (packages/domain) as its route's response schema",
  'http/openapi.ts': 'describes the registered response schemas in the OpenAPI document (adds the refusals), shapes untouched',
};

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
  'routes registered by the route table alone': routesFromTable,
  'answer shapes in packages/domain/src/shapes': shapesInDomain,
  'web lower layer ordered (components -> api -> session)': webLowerOrder,
  "the public pages' room (apps/web/src/pages)": pagesRoom,
  'no import circle': importCircles,
  'migrations expand only (a release drops or renames nothing the previous one reads)': migrationsExpandOnly,
};
