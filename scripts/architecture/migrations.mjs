// Issue 43: migrations expand, then contract one release later. A release may only add what the previous release
// ignores, so that during a rolling upgrade the old instances keep working on the migrated database; a table or a
// column is dropped or renamed only once a whole release has run without reading it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const MIGRATIONS = 'apps/server/src/db/migrations';
const SCHEMA = 'apps/server/src/db/schema';
/**
 * The migrations of release 1.0.0 (0000 to 0019) ran before any release was upgraded in place: they are history. Every
 * later one is checked.
 */
export const EXPAND_BASELINE = 19;

/** Statements the previous release's code may trip on, each with why. */
const CONTRACTING = [
  [/\bDROP\s+TABLE\b/i, 'drops a table'],
  [/\bDROP\s+COLUMN\b/i, 'drops a column'],
  [/\bRENAME\b/i, 'renames'],
  [/\bALTER\s+COLUMN\s+"?\w+"?\s+(SET\s+DATA\s+)?TYPE\b/i, "changes a column's type"],
  [/\bALTER\s+COLUMN\s+"?\w+"?\s+SET\s+NOT\s+NULL\b/i, 'makes a column required (the previous release may leave it empty)'],
  [/\bDROP\s+VIEW\b/i, 'drops a view'],
];
/** `ADD COLUMN … NOT NULL` without a default: the previous release's inserts, which do not name it, would fail. */
const REQUIRED_WITHOUT_DEFAULT = /\bADD\s+COLUMN\b(?![^;]*\bDEFAULT\b)[^;]*\bNOT\s+NULL\b/i;

const versionParts = (version) => version.split('.').map(Number);
/** a < b, for `major.minor.patch`. */
export function olderRelease(a, b) {
  const [x, y] = [versionParts(a), versionParts(b)];
  for (let index = 0; index < 3; index++) if ((x[index] ?? 0) !== (y[index] ?? 0)) return (x[index] ?? 0) < (y[index] ?? 0);
  return false;
}

/**
 * What a contracting statement takes away from the previous release: the column dropped, renamed or retyped, else the
 * table (`ALTER TABLE "t" DROP COLUMN "c"` takes c; `DROP TABLE "t"` and `ALTER TABLE "t" RENAME TO "u"` take t).
 */
function takenOf(statement) {
  const column = /\b(?:DROP|RENAME|ALTER)\s+COLUMN\s+(?:IF\s+EXISTS\s+)?"?(\w+)"?/i.exec(statement);
  if (column) return column[1];
  return /\b(?:TABLE|VIEW)\s+(?:IF\s+EXISTS\s+)?"?(\w+)"?/i.exec(statement)?.[1];
}

/**
 * Every migration after the baseline: a contracting statement fails unless `contract.json` (beside the migrations)
 * lists it with the release since which the code stopped reading what it touches, that release is older than this
 * one (package.json), and no schema file of this release names it any more.
 */
export function migrationsExpandOnly(root) {
  const journalFile = join(root, MIGRATIONS, 'meta/_journal.json');
  if (!existsSync(journalFile)) return [];
  const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
  const contractFile = join(root, MIGRATIONS, 'contract.json');
  const contracts = existsSync(contractFile) ? JSON.parse(readFileSync(contractFile, 'utf8')) : [];
  const release = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version ?? '0.0.0';
  const schemaText = ['access', 'audit', 'directory', 'history', 'jobs', 'reference', 'reformes', 'reminders', 'throttling', 'users']
    .map((name) => join(root, SCHEMA, `${name}.ts`))
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, 'utf8'))
    .join('\n');
  const breaches = [];
  for (const entry of journal.entries.filter((candidate) => candidate.idx > EXPAND_BASELINE)) {
    const file = `${entry.tag}.sql`;
    const path = join(root, MIGRATIONS, file);
    if (!existsSync(path)) continue;
    const statements = readFileSync(path, 'utf8')
      .replace(/--[^\n]*$/gm, '')
      .split(/;|-->\s*statement-breakpoint/)
      .map((statement) => statement.trim().replace(/\s+/g, ' '))
      .filter(Boolean);
    for (const statement of statements) {
      const why = REQUIRED_WITHOUT_DEFAULT.test(statement)
        ? 'adds a required column without a default (the previous release inserts rows without it)'
        : CONTRACTING.find(([pattern]) => pattern.test(statement))?.[1];
      if (!why) continue;
      const contract = contracts.find(
        (candidate) => candidate.migration === file && candidate.statement.replace(/;\s*$/, '').replace(/\s+/g, ' ').trim() === statement,
      );
      const taken = takenOf(statement);
      const stillRead = taken !== undefined && new RegExp(`['"]${taken}['"]|\\b${taken}\\s*:`).test(schemaText);
      if (!contract) {
        breaches.push(
          `${file} ${why}: \`${statement.slice(0, 90)}\` — expand only; contract one release after the code stopped reading it (contract.json)`,
        );
      } else if (!olderRelease(contract.unusedSince, release)) {
        breaches.push(
          `${file}: \`${statement.slice(0, 60)}\` contracts in ${release}, the release in which the code stopped reading it (${contract.unusedSince}): wait one release`,
        );
      } else if (stillRead) {
        breaches.push(`${file}: \`${statement.slice(0, 60)}\` takes ${taken} away, which the schema of this release still names`);
      }
    }
  }
  return breaches;
}
