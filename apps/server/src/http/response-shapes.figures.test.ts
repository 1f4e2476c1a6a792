import { describe, expect, it } from 'vitest';
import { securityFigure } from '../test/security-doc.ts';
import { createTestApp } from '../test/test-app.ts';

/** Answers that are not JSON (files, CSV, the web app): they have no JSON shape to declare. */
const NOT_JSON = new Set<string>([
  'GET /api/v1/audit-logs/export.csv',
  'GET /api/v1/reformes/public/export.csv',
  // JSON, but a file to save (Content-Disposition: attachment), written as text with its French headers.
  'GET /api/v1/reformes/public/export.json',
  'GET /api/v1/files/{id}',
  'GET /api/v1/portfolio/export.csv',
  'GET /api/v1/portfolio/export.xlsx',
  'GET /api/v1/reformes/import/template.csv',
  'GET /api/v1/reformes/import/template.xlsx',
  'GET /api/v1/storage/backups/docs/{name}',
  'GET /api/v1/storage/backups/db_data/{name}',
  // A 303 to the directory's provider (issue 42).
  'GET /api/v1/auth/oidc/authorize',
]);

interface OpenApiOperation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

describe('response shapes (issue 15)', () => {
  it('every JSON route declares its success answer, so the OpenAPI document describes it', async () => {
    const t = await createTestApp();
    try {
      const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
        paths: Record<string, Record<string, OpenApiOperation>>;
      };
      const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({ route: `${method.toUpperCase()} ${path}`, operation })),
      );
      const undeclared = operations
        .filter(({ route }) => !NOT_JSON.has(route))
        .filter(({ operation }) =>
          Object.entries(operation.responses ?? {}).every(
            ([status, answer]) => !status.startsWith('2') || !answer.content?.['application/json']?.schema,
          ),
        )
        .map(({ route }) => route);
      const figure = `${operations.length - undeclared.length - NOT_JSON.size} of ${operations.length} routes declared, ${NOT_JSON.size} not JSON (files, a redirect)`;
      console.info(`response shapes: ${figure}`);
      expect(undeclared).toEqual([]);
      // The figure of docs/security.md, as it must read there.
      expect(securityFigure('Routes whose JSON answer has a declared shape (OpenAPI)')).toBe(figure);
    } finally {
      await t.close();
    }
  });
});
