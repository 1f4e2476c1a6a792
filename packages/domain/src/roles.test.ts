import { describe, expect, it } from 'vitest';
import { choosesStructure, isAdminRole, isRoleName, ROLE_NAMES, roleOf, seesAllStructures } from './roles.ts';

describe('roleOf (spec §6: the name of the first role)', () => {
  it('takes the first role of the list', () => {
    expect(roleOf({ roles: [{ name: 'validation' }, { name: 'admin' }] })).toBe('validation');
  });

  it('is undefined without a user or without roles', () => {
    expect(roleOf({ roles: [] })).toBeUndefined();
    expect(roleOf({ roles: null })).toBeUndefined();
    expect(roleOf({})).toBeUndefined();
    expect(roleOf(null)).toBeUndefined();
    expect(roleOf(undefined)).toBeUndefined();
  });
});

describe('roles', () => {
  it('lists the five built-in roles', () => {
    expect(ROLE_NAMES).toEqual(['admin', 'saisie central', 'saisie', 'validation', 'publication']);
  });

  it('recognises only those names', () => {
    for (const role of ROLE_NAMES) expect(isRoleName(role)).toBe(true);
    expect(isRoleName('Admin')).toBe(false);
    expect(isRoleName('saisie_central')).toBe(false);
    expect(isRoleName(undefined)).toBe(false);
    expect(isRoleName(3)).toBe(false);
  });

  it('lets admin, saisie central and publication see every structure, and no one else', () => {
    expect(ROLE_NAMES.filter(seesAllStructures)).toEqual(['admin', 'saisie central', 'publication']);
    expect(seesAllStructures(undefined)).toBe(false);
  });

  it('lets saisie central alone choose the structure of a reform (spec §5)', () => {
    expect(ROLE_NAMES.filter(choosesStructure)).toEqual(['saisie central']);
    expect(choosesStructure(undefined)).toBe(false);
    expect(choosesStructure('Saisie central')).toBe(false);
  });

  it('names admin alone the administrator, whatever the structure scope', () => {
    expect(ROLE_NAMES.filter(isAdminRole)).toEqual(['admin']);
    expect(isAdminRole(undefined)).toBe(false);
    expect(isAdminRole('Admin')).toBe(false);
  });
});
