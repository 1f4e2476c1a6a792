// `npm run lint` runs this: every rule of rules.mjs on the checkout; any breach fails the lint.
// Usage: node scripts/architecture/check.mjs [root]
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RULES } from './rules.mjs';

const root = resolve(process.argv[2] ?? resolve(dirname(fileURLToPath(import.meta.url)), '../..'));
let failed = 0;
for (const [name, rule] of Object.entries(RULES)) {
  const breaches = rule(root);
  failed += breaches.length;
  console.log(`${breaches.length === 0 ? 'ok  ' : 'FAIL'} ${name}${breaches.length ? ` (${breaches.length})` : ''}`);
  for (const breach of breaches) console.log(`     ${breach}`);
}
process.exitCode = failed > 0 ? 1 : 0;
