/**
 * Import benchmark (issue 17): a CSV of BENCH_IMPORT_ROWS lines (default 10 000: 2 500 reforms of 2 objectives
 * with 2 results each) uploaded for preview, then imported, through the API (`app.inject`) on a fresh database:
 *   npm run bench:import                     # the embedded PostgreSQL, and PostgreSQL when DATABASE_URL is set
 * Prints the size of the file and the time of each step; the goal is under a minute for 10 000 lines.
 */
import { IMPORT_TEMPLATE } from '@reformes/domain';
import setUpTestServer from '../src/test/global-setup.ts';
import { createTestApp } from '../src/test/test-app.ts';
import { useTestServer } from '../src/test/test-database.ts';
import type { TestServer } from '../src/test/test-server.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);

function csv(): string {
  const lines = [IMPORT_TEMPLATE.header.join(';')];
  const example = IMPORT_TEMPLATE.example;
  for (let index = 0; index < ROWS; index += 1) {
    const reforme = Math.floor(index / 4);
    const first = index % 4 === 0;
    const cells = example.map((cell, column) => {
      if (column === 0) return `Réforme importée n° ${reforme + 1}`;
      if (column < 14) return first ? cell : '';
      if (column === 14) return `Objectif ${Math.floor((index % 4) / 2) + 1}`;
      if (column === 15) return `Résultat ${index + 1}`;
      return cell;
    });
    lines.push(cells.join(';'));
  }
  return `\uFEFF${lines.join('\r\n')}`;
}

const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PostgreSQL';
// The test suites' database server (one embedded cluster, or DATABASE_URL's), set up as vitest does.
let server: TestServer | undefined;
const tearDown = await setUpTestServer({ provide: (_key: string, value: TestServer) => (server = value) } as never);
if (server) useTestServer(server);
const t = await createTestApp();
try {
  const central = await t.as('saisie central');
  const content = csv();
  const form = new FormData();
  form.append('file', new Blob([content]), 'import.csv');
  let started = performance.now();
  const preview = await t.app.inject({ method: 'POST', url: '/api/v1/reformes/import/preview', headers: central.headers, payload: form });
  const previewMs = performance.now() - started;
  if (preview.statusCode !== 200) throw new Error(`preview ${preview.statusCode} ${preview.body.slice(0, 300)}`);
  const { rows, valid, issues } = preview.json().data;
  started = performance.now();
  const imported = await central.post('reformes/import', { rows });
  const importMs = performance.now() - started;
  if (imported.statusCode !== 201) throw new Error(`import ${imported.statusCode} ${imported.body.slice(0, 300)}`);
  console.log(
    `engine: ${engine}; file: ${ROWS} lines, ${(Buffer.byteLength(content) / 1024).toFixed(0)} KiB; ${valid} reforms, ${issues.length} issues`,
  );
  console.log(`preview (upload, parse, check): ${(previewMs / 1000).toFixed(2)} s`);
  console.log(`import (check again, write in one transaction): ${(importMs / 1000).toFixed(2)} s`);
  console.log(`total: ${((previewMs + importMs) / 1000).toFixed(2)} s (goal: under 60 s)`);
} finally {
  await t.close();
  await tearDown();
}
