import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTION_CODES,
  auditActionLabel,
  auditActionsMatching,
  auditDetailsText,
  auditFiltersSchema,
  auditPeriodOf,
  auditResultText,
  auditTargetText,
  isAuditPeriodInOrder,
} from './audit.ts';
import { defaultPermissionNames } from './permissions.ts';
import { ROLE_NAMES } from './roles.ts';

describe('audit labels', () => {
  it('names every action in French, and an unknown code as it is', () => {
    for (const code of AUDIT_ACTION_CODES) expect(auditActionLabel(code)).not.toBe(code);
    expect(auditActionLabel('login')).toBe('Connexion');
    expect(auditActionLabel('futur.evenement')).toBe('futur.evenement');
  });

  it('names the target by its type and label, or its id once the label is unknown', () => {
    expect(auditTargetText({ target_type: 'user', target_id: 3, target_label: 'awa@reformes.test' })).toBe('Compte awa@reformes.test');
    expect(auditTargetText({ target_type: 'role', target_id: 12, target_label: null })).toBe('Rôle #12');
    expect(auditTargetText({ target_type: null, target_id: null, target_label: null })).toBe('');
  });

  it('gives the reason of a failure next to the result', () => {
    expect(auditResultText({ result: 'success', details: {} })).toBe('Succès');
    expect(auditResultText({ result: 'failure', details: { reason: 'wrong_password' } })).toBe('Échec (mot de passe incorrect)');
    expect(auditResultText({ result: 'failure', details: { reason: 'autre' } })).toBe('Échec (autre)');
  });

  it('writes the details in French, without the reason', () => {
    expect(auditDetailsText({ permissions: ['users.list', 'roles.list'], is_active: false })).toBe(
      'Droits : users.list, roles.list · Actif : non',
    );
    expect(auditDetailsText({ reason: 'blocked' })).toBe('');
    expect(auditDetailsText({ filters: { action: 'login' } })).toBe('Filtres : action = login');
    expect(auditDetailsText(null)).toBe('');
  });

  it('finds the actions whose label holds a text, whatever its case and accents', () => {
    expect(auditActionsMatching('DEPUBLICATION')).toEqual(['reforme.unpublish']);
    expect(auditActionsMatching('connexion')).toEqual([
      'login',
      'logout',
      'two_factor.recovery_used',
      'directory.sign_in',
      'directory.backchannel_logout',
    ]);
    expect(auditActionsMatching('annuaire')).toEqual([
      'directory.sign_in',
      'directory.link',
      'directory.unlink',
      'directory.account_created',
      'directory.backchannel_logout',
    ]);
    expect(auditActionsMatching('  ')).toEqual([]);
  });
});

describe('auditFiltersSchema', () => {
  it('takes blank filters as none', () => {
    expect(auditFiltersSchema.parse({ action: '', result: ' ', from: '', to: '' })).toEqual({});
  });

  it('takes days and instants, refuses anything else', () => {
    expect(auditFiltersSchema.parse({ from: '2026-07-12', to: '2026-07-12T21:59:59.999Z' })).toEqual({
      from: '2026-07-12',
      to: '2026-07-12T21:59:59.999Z',
    });
    expect(auditFiltersSchema.safeParse({ from: '12/07/2026' }).success).toBe(false);
    expect(auditFiltersSchema.safeParse({ action: 'inconnue' }).success).toBe(false);
    expect(auditFiltersSchema.safeParse({ result: 'peut-être' }).success).toBe(false);
  });

  it('covers a whole day with a day, one instant with an instant', () => {
    expect(auditPeriodOf('2026-07-12')).toEqual({ start: new Date('2026-07-12T00:00:00Z'), end: new Date('2026-07-13T00:00:00Z') });
    expect(auditPeriodOf('2026-07-12T10:00:00.000Z').end).toEqual(new Date('2026-07-12T10:00:00.001Z'));
  });

  it('accepts a period of one day and refuses one that ends before it starts', () => {
    expect(isAuditPeriodInOrder({ from: '2026-07-12', to: '2026-07-12' })).toBe(true);
    expect(isAuditPeriodInOrder({ from: '2026-07-12' })).toBe(true);
    expect(isAuditPeriodInOrder({ from: '2026-07-12', to: '2026-07-11' })).toBe(false);
  });
});

describe('the audit right', () => {
  it('goes to admin only, by default', () => {
    expect(ROLE_NAMES.filter((role) => defaultPermissionNames(role).includes('audit.list'))).toEqual(['admin']);
  });
});
