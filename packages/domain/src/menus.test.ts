import { describe, expect, it } from 'vitest';
import { type MenuEntry, menuOf } from './menus.ts';

/** A menu as "label (route)" lines, children indented, so the expectations read like spec §2.3. */
function outline(entries: MenuEntry[], depth = 0): string[] {
  return entries.flatMap((entry) => [
    `${'  '.repeat(depth)}${entry.name}${entry.route ? ` (${entry.route})` : ''}`,
    ...outline(entry.children ?? [], depth + 1),
  ]);
}

describe('menuOf (spec §2.3)', () => {
  it('gives admin the dashboard, users, the access screens, the reform list and every configuration with backups', () => {
    expect(outline(menuOf('admin'))).toEqual([
      'Tableau de bord (/admin/dashboard)',
      'Comptes utilisateurs (/admin/users)',
      'Habilitations',
      '  Rôles (/admin/roles)',
      '  Permissions (/admin/permissions)',
      '  Rôles & permissions (/admin/profils)',
      "  Journal d'audit (/admin/audit)",
      '  Courriels et tâches (/admin/jobs)',
      '  Rappels (/admin/reminders)',
      'Réformes',
      '  Liste (/admin/list-reformes)',
      'Configurations',
      '  Secteurs (/admin/sectors)',
      '  Structures (/admin/structures)',
      '  Natures (/admin/natures)',
      '  Couvertures (/admin/covers)',
      '  Entités administratives (/admin/entities)',
      '  Sauvegarde (/admin/backups)',
    ]);
  });

  it('gives saisie central new, list and follow-up, and the configurations without backups', () => {
    expect(outline(menuOf('saisie central'))).toEqual([
      'Tableau de bord (/admin/dashboard)',
      'Réformes',
      '  Nouvelle (/admin/create-reforme)',
      '  Liste (/admin/list-reformes)',
      '  Suivi des réformes (/admin/follow-reformes)',
      'Configurations',
      '  Secteurs (/admin/sectors)',
      '  Structures (/admin/structures)',
      '  Natures (/admin/natures)',
      '  Couvertures (/admin/covers)',
      '  Entités administratives (/admin/entities)',
    ]);
  });

  it('gives saisie "A transmettre", its records and the follow-up data entry', () => {
    expect(outline(menuOf('saisie'))).toEqual([
      'Tableau de bord (/admin/dashboard)',
      'Réformes',
      '  Nouvelle (/admin/create-reforme)',
      '  A transmettre (/admin/treatment-reformes)',
      '  Mes enregistrements (/admin/mylist-reformes)',
      '  Données de suivi (/admin/follow-reforme-create)',
      '  Suivi des réformes (/admin/follow-reformes)',
    ]);
  });

  it('gives validation "A valider"', () => {
    expect(outline(menuOf('validation'))).toEqual([
      'Tableau de bord (/admin/dashboard)',
      'Réformes',
      '  Nouvelle (/admin/create-reforme)',
      '  A valider (/admin/treatment-reformes)',
      '  Mes enregistrements (/admin/mylist-reformes)',
      '  Suivi des réformes (/admin/follow-reformes)',
    ]);
  });

  it('gives publication "A publier" and the reform list', () => {
    expect(outline(menuOf('publication'))).toEqual([
      'Tableau de bord (/admin/dashboard)',
      'Réformes',
      '  Nouvelle (/admin/create-reforme)',
      '  A publier (/admin/treatment-reformes)',
      '  Mes enregistrements (/admin/mylist-reformes)',
      '  Liste (/admin/list-reformes)',
      '  Suivi des réformes (/admin/follow-reformes)',
    ]);
  });

  it('gives any other role, or none, no menu', () => {
    expect(menuOf('inconnu')).toEqual([]);
    expect(menuOf('Admin')).toEqual([]);
    expect(menuOf('')).toEqual([]);
    expect(menuOf(undefined)).toEqual([]);
    expect(menuOf('toString')).toEqual([]);
    expect(menuOf('constructor')).toEqual([]);
  });
});
