import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { operationIdOf } from './openapi.ts';

interface Operation {
  operationId?: string;
  summary?: string;
  security?: Array<Record<string, string[]>>;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>> };

const redocly = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

/** Issue 30, item 5: the served description is complete, and Redocly CLI's recommended rules find no error in it. */
describe('the OpenAPI document', { timeout: 120_000 }, () => {
  let t: TestApp;
  let document: Document;
  let operations: Array<{ method: string; url: string; operation: Operation }>;

  beforeAll(async () => {
    t = await createTestApp();
    document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    operations = Object.entries(document.paths).flatMap(([url, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ method, url, operation })),
    );
  });
  afterAll(() => t.close());

  it('gives every operation a unique operationId, a summary, an answer shape and a security requirement', () => {
    expect(operations.length).toBeGreaterThan(150);
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(operations.length);
    const incomplete = operations.filter(({ operation }) => {
      const answered = Object.entries(operation.responses).some(
        ([status, answer]) => status.startsWith('2') && Object.values(answer.content ?? {}).some((media) => media.schema),
      );
      return !operation.summary || !answered || !Array.isArray(operation.security);
    });
    // The directory's redirect to its provider (RouteSpec.bodiless): a 303 with its Location, no body.
    expect(incomplete.map(({ method, url }) => `${method} ${url}`)).toEqual(['get /api/v1/auth/oidc/authorize']);
    expect(operations.find((entry) => entry.url === '/api/v1/auth/oidc/authorize')?.operation.responses['303']).toBeDefined();
  });

  it('declares the bearer scheme on guarded routes and an explicitly empty requirement on public ones', () => {
    const of = (method: string, url: string) => operations.find((entry) => entry.method === method && entry.url === url)?.operation;
    expect(of('get', '/api/v1/users')?.security).toEqual([{ bearer: [] }]);
    expect(of('post', '/api/v1/api/login')?.security).toEqual([]);
    expect(of('get', '/api/v1/reformes/public/export.csv')?.responses['200'].content).toHaveProperty('text/csv; charset=utf-8');
    expect(of('get', '/api/v1/files/{id}')?.responses['200'].content?.['application/pdf']?.schema).toEqual({
      type: 'string',
      format: 'binary',
    });
  });

  it('passes `redocly lint` (recommended rules) without an error', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'openapi-'));
    try {
      const file = path.join(folder, 'openapi.json');
      writeFileSync(file, JSON.stringify(document));
      // Redocly exits 1 on errors: its JSON report is read either way.
      const report = await promisify(execFile)(process.execPath, [redocly, 'lint', file, '--format', 'json', '--max-problems', '1000'], {
        maxBuffer: 64 * 1024 * 1024,
      }).catch((failure: { stdout: string }) => failure);
      const problems = (JSON.parse(report.stdout) as { problems: Array<{ ruleId: string; severity: string; message: string }> }).problems;
      expect(problems.filter((problem) => problem.severity === 'error')).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('names operations after their method and path, a leading dash kept apart', () => {
    expect(operationIdOf('GET', '/api/v1/reformes/:id/state/:state')).toBe('getReformesByIdStateByState');
    expect(operationIdOf('POST', '/api/v1/reformes/-search')).not.toBe(operationIdOf('POST', '/api/v1/reformes-search'));
  });
});
