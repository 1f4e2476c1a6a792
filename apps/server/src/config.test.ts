import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('configuration', () => {
  it('sizes the PostgreSQL pool with DATABASE_POOL_MAX (default 10, 1 to 100)', () => {
    expect(loadConfig({}).databasePoolMax).toBe(10);
    expect(loadConfig({ DATABASE_POOL_MAX: '4' }).databasePoolMax).toBe(4);
    expect(() => loadConfig({ DATABASE_POOL_MAX: '0' })).toThrow('DATABASE_POOL_MAX doit valoir au moins 1');
    expect(() => loadConfig({ DATABASE_POOL_MAX: '500' })).toThrow('DATABASE_POOL_MAX ne peut pas dépasser 100');
    expect(() => loadConfig({ DATABASE_POOL_MAX: '2.5' })).toThrow('DATABASE_POOL_MAX doit être un nombre entier');
    expect(() => loadConfig({ DATABASE_POOL_MAX: 'beaucoup' })).toThrow('DATABASE_POOL_MAX');
  });
});
