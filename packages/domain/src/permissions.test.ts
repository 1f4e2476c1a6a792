import { describe, expect, it } from 'vitest';
import { ACTIONS, DEFAULT_GRANTS, defaultPermissionNames, FEATURES, permissionName } from './permissions.ts';
import { ROLE_NAMES } from './roles.ts';

describe('DEFAULT_GRANTS (spec §6)', () => {
  it('grants every one of the five roles, and only them', () => {
    expect(Object.keys(DEFAULT_GRANTS).sort()).toEqual([...ROLE_NAMES].sort());
  });

  it('uses only known features and allowed actions', () => {
    const features = new Set<string>(FEATURES.map((feature) => feature.name));
    for (const grants of Object.values(DEFAULT_GRANTS)) {
      for (const [feature, actions] of Object.entries(grants)) {
        expect(features.has(feature)).toBe(true);
        for (const action of actions ?? []) expect(ACTIONS).toContain(action);
      }
    }
  });

  it('gives admin the reform list but none of show, add, edit or delete', () => {
    const admin = defaultPermissionNames('admin');
    expect(admin).toContain('reformes.list');
    for (const action of ['show', 'add', 'edit', 'delete']) expect(admin).not.toContain(`reformes.${action}`);
  });

  it('gives the validation of results to publication only', () => {
    const holders = ROLE_NAMES.filter((role) => defaultPermissionNames(role).includes('resultats-validation.edit'));
    expect(holders).toEqual(['publication']);
  });

  it('gives publish to publication and saisie central only', () => {
    const holders = ROLE_NAMES.filter((role) => defaultPermissionNames(role).includes('publication.edit'));
    expect(holders).toEqual(['saisie central', 'publication']);
  });

  it('gives user management and backups to admin only', () => {
    for (const name of ['users.list', 'users.add', 'backups.add', 'roles.edit', 'profiles.add']) {
      expect(ROLE_NAMES.filter((role) => defaultPermissionNames(role).includes(name))).toEqual(['admin']);
    }
  });

  it('lets every role open its dashboard and edit its own account', () => {
    for (const role of ROLE_NAMES) {
      expect(defaultPermissionNames(role)).toEqual(expect.arrayContaining(['dashboard.list', 'account.show', 'account.edit']));
    }
  });

  it('lists no permission twice for a role', () => {
    for (const role of ROLE_NAMES) {
      const names = defaultPermissionNames(role);
      expect(new Set(names).size).toBe(names.length);
    }
  });
});

describe('permissionName', () => {
  it('joins feature and action with a dot', () => {
    expect(permissionName('reformes', 'list')).toBe('reformes.list');
  });

  it('has unique feature names in the catalogue', () => {
    const names = FEATURES.map((feature) => feature.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
