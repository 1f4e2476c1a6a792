import { describe, expect, it } from 'vitest';
import { pendingStageOf, statCardsOf } from './dashboard.ts';

const labelsOf = (role: string | undefined) => statCardsOf(role).map((card) => card.label);
const COMMON = ['Réformes', 'Réformes administratives', 'Réformes institutionnelles'];

describe('statCardsOf (spec §2.6)', () => {
  it('shows admin the three reform cards plus user accounts and structures', () => {
    expect(labelsOf('admin')).toEqual([...COMMON, 'Compte Utilisateurs', 'Structures']);
    expect(statCardsOf('admin').map((card) => card.key)).toEqual([
      'total_reforme',
      'total_reforme_admin',
      'total_reforme_ins',
      'users',
      'total_structures',
    ]);
  });

  it('shows saisie and saisie central the reforms awaiting transmission', () => {
    expect(labelsOf('saisie')).toEqual([...COMMON, 'Réformes en attente de transmission']);
    expect(labelsOf('saisie central')).toEqual([...COMMON, 'Réformes en attente de transmission']);
  });

  it('shows validation the reforms awaiting validation', () => {
    expect(labelsOf('validation')).toEqual([...COMMON, 'Réformes en attente de validation']);
  });

  it('shows publication the reforms awaiting publication', () => {
    expect(labelsOf('publication')).toEqual([...COMMON, 'Réformes en attente de publication']);
    expect(statCardsOf('publication')[3].key).toBe('total_pending');
  });

  it('shows any other role only the three common cards', () => {
    expect(labelsOf('inconnu')).toEqual(COMMON);
    expect(labelsOf(undefined)).toEqual(COMMON);
    expect(labelsOf('toString')).toEqual(COMMON);
  });
});

describe('pendingStageOf', () => {
  it('maps each role to the stage its pending card counts', () => {
    expect(pendingStageOf('saisie')).toBe(1);
    expect(pendingStageOf('saisie central')).toBe(1);
    expect(pendingStageOf('validation')).toBe(2);
    expect(pendingStageOf('publication')).toBe(3);
    expect(pendingStageOf('admin')).toBeUndefined();
    expect(pendingStageOf(undefined)).toBeUndefined();
  });
});
