import { envelopeShape, timestamp } from '@reformes/domain';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { droppedPaths, responseSerializerCompiler } from './response-serializer.ts';

const rowShape = envelopeShape(z.object({ id: z.number(), created_at: timestamp }));

async function appAnswering(strict: boolean, data: unknown) {
  const app = Fastify().withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(strict));
  app.get('/row', { schema: { response: { 200: rowShape } } }, async () => ({ message: 'ok', data }) as never);
  return app.inject({ method: 'GET', url: '/row' });
}

describe('droppedPaths', () => {
  it('names the fields an answer loses, nested and in arrays, and ignores undefined ones', () => {
    expect(droppedPaths({ a: 1, b: { c: 2, d: 3 }, e: [{ f: 1, g: 2 }], h: undefined }, { a: 1, b: { c: 2 }, e: [{ f: 1 }] })).toEqual([
      '$.b.d',
      '$.e[0].g',
    ]);
    expect(droppedPaths({ a: new Date(0) }, { a: '1970-01-01T00:00:00.000Z' })).toEqual([]);
  });
});

describe('responseSerializerCompiler', () => {
  it('writes a Date as its ISO string', async () => {
    const response = await appAnswering(true, { id: 1, created_at: new Date('2026-01-31T23:00:00Z') });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'ok', data: { id: 1, created_at: '2026-01-31T23:00:00.000Z' } });
  });

  it('fails outside production when the shape would drop a field, and strips it in production', async () => {
    const row = { id: 1, created_at: '2026-01-31T23:00:00.000Z', password: 'hash' };
    expect((await appAnswering(true, row)).statusCode).toBe(500);
    const stripped = await appAnswering(false, row);
    expect(stripped.statusCode).toBe(200);
    expect(stripped.json().data).toEqual({ id: 1, created_at: '2026-01-31T23:00:00.000Z' });
  });

  it('refuses an answer that does not match its shape', async () => {
    expect((await appAnswering(false, { id: 'one', created_at: 'x' })).statusCode).toBe(500);
  });
});
