import { defaultPermissionNames, type RoleName } from '@reformes/domain';
import { describe, expect, it } from 'vitest';
import { isActionDisabled, reformeActionsFor } from './reforme-actions.ts';

const at = (stage: number, isPublished = false, is_active = true) => ({ stage, isPublished, is_active });
const actionsOf = (role: RoleName, reforme: ReturnType<typeof at>, screen: Parameters<typeof reformeActionsFor>[3]) =>
  reformeActionsFor(reforme, role, defaultPermissionNames(role), screen);

describe('reform row buttons by role (spec §6)', () => {
  it('gives saisie, at its stage, transmit and the objectives and results but neither return nor publish', () => {
    expect(actionsOf('saisie', at(1), 'treatment')).toEqual(['view', 'edit', 'delete', 'objectifs', 'resultat', 'transmit']);
  });

  it('gives validation both return for correction and transmit at stage 2', () => {
    expect(actionsOf('validation', at(2), 'treatment')).toEqual(['view', 'edit', 'delete', 'return', 'transmit']);
  });

  it('gives publication return and publish at stage 3, never transmit', () => {
    expect(actionsOf('publication', at(3), 'treatment')).toEqual(['view', 'edit', 'delete', 'return', 'publish']);
  });

  it('offers no workflow button away from the role stage', () => {
    expect(actionsOf('saisie', at(2), 'treatment')).not.toContain('transmit');
    expect(actionsOf('publication', at(2), 'treatment')).not.toContain('publish');
  });

  it('gives saisie central publish, unpublish, state and objectives on the reforms list; admin nothing', () => {
    expect(actionsOf('saisie central', at(3), 'list')).toEqual([
      'view',
      'edit',
      'delete',
      'deactivate',
      'publish',
      'objectifs',
      'resultat',
    ]);
    expect(actionsOf('saisie central', at(3, true, false), 'list')).toEqual([
      'view',
      'edit',
      'activate',
      'unpublish',
      'objectifs',
      'resultat',
    ]);
    expect(actionsOf('admin', at(3), 'list')).toEqual([]);
  });

  it('gives publication publish then unpublish on the reforms list', () => {
    expect(actionsOf('publication', at(3), 'list')).toEqual(['view', 'edit', 'delete', 'publish']);
    expect(actionsOf('publication', at(3, true), 'list')).toEqual(['view', 'edit', 'unpublish']);
  });

  it('keeps a published reform read-only for saisie and validation', () => {
    expect(actionsOf('saisie', at(3, true), 'list')).toEqual(['view']);
    expect(actionsOf('validation', at(3, true), 'list')).toEqual(['view']);
  });

  it('offers edit, delete and state only to the role at the reform stage', () => {
    expect(actionsOf('saisie', at(2), 'list')).toEqual(['view']);
    expect(actionsOf('validation', at(1), 'list')).toEqual(['view']);
    expect(actionsOf('validation', at(2), 'list')).toEqual(['view', 'edit', 'delete']);
    expect(actionsOf('publication', at(1), 'list')).toEqual(['view']);
    expect(actionsOf('saisie central', at(1), 'list')).toEqual(['view']);
  });

  it('shows edit disabled on my records (spec §6), delete only while the reform is at the user stage', () => {
    expect(actionsOf('saisie', at(1), 'myList')).toEqual(['view', 'edit', 'delete']);
    expect(actionsOf('saisie', at(2), 'myList')).toEqual(['view', 'edit']);
    expect(isActionDisabled('myList', 'edit')).toBe(true);
    expect(isActionDisabled('myList', 'delete')).toBe(false);
    expect(isActionDisabled('treatment', 'edit')).toBe(false);
  });

  it('follows the stored rights: without reformes.delete there is no delete button', () => {
    const features = defaultPermissionNames('saisie').filter((name) => name !== 'reformes.delete');
    expect(reformeActionsFor(at(1), 'saisie', features, 'myList')).toEqual(['view', 'edit']);
  });
});
