import fs from 'node:fs';

/** docs/security.md, whose figures the `*.figures.test.ts` files compute: a route added without updating them fails. */
const SECURITY_DOC = new URL('../../../../docs/security.md', import.meta.url);

/** The value cell of the row of docs/security.md's figures table whose first cell is `label`. */
export function securityFigure(label: string): string {
  const line = fs
    .readFileSync(SECURITY_DOC, 'utf8')
    .split('\n')
    .find((row) => row.startsWith(`| ${label} |`));
  if (!line) throw new Error(`docs/security.md has no figures row "${label}"`);
  return line.split('|')[2].trim();
}
