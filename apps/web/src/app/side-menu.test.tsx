import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../test/fake-api.ts';
import { aUser, renderApp, signInAs } from '../test/render-app.tsx';

const dash = {
  message: 'ok',
  data: { total_reforme: 0, total_reforme_admin: 0, total_reforme_ins: 0, total_pending: 0, users: 0, total_structures: 0 },
};

async function menuLinksFor(role: string) {
  signInAs(aUser({ roles: [{ id: 1, name: role }] }));
  fakeApi({ 'GET dash/': { body: dash } });
  renderApp('/admin/dashboard');
  const menu = await screen.findByRole('navigation', { name: 'Menu principal' });
  return within(menu)
    .queryAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

const dashboard = ['Tableau de bord', '/admin/dashboard'];
const nouvelle = ['Nouvelle', '/admin/create-reforme'];
const liste = ['Liste', '/admin/list-reformes'];
const suivi = ['Suivi des réformes', '/admin/follow-reformes'];
const mesEnregistrements = ['Mes enregistrements', '/admin/mylist-reformes'];
const configurations = [
  ['Secteurs', '/admin/sectors'],
  ['Structures', '/admin/structures'],
  ['Natures', '/admin/natures'],
  ['Couvertures', '/admin/covers'],
  ['Entités administratives', '/admin/entities'],
];

describe('side menu (spec §2.3)', () => {
  it('gives admin the accounts, the access screens, the reform list, the configurations and the backups', async () => {
    expect(await menuLinksFor('admin')).toEqual([
      dashboard,
      ['Comptes utilisateurs', '/admin/users'],
      ['Rôles', '/admin/roles'],
      ['Permissions', '/admin/permissions'],
      ['Rôles & permissions', '/admin/profils'],
      ["Journal d'audit", '/admin/audit'],
      ['Courriels et tâches', '/admin/jobs'],
      ['Rappels', '/admin/reminders'],
      liste,
      ...configurations,
      ['Sauvegarde', '/admin/backups'],
    ]);
    expect(screen.getByRole('button', { name: 'Réformes' })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('button', { name: 'Configurations' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Habilitations' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('gives saisie central the reforms and the configurations without backups', async () => {
    expect(await menuLinksFor('saisie central')).toEqual([dashboard, nouvelle, liste, suivi, ...configurations]);
  });

  it('gives saisie "A transmettre" and the follow-up data entry', async () => {
    expect(await menuLinksFor('saisie')).toEqual([
      dashboard,
      nouvelle,
      ['A transmettre', '/admin/treatment-reformes'],
      mesEnregistrements,
      ['Données de suivi', '/admin/follow-reforme-create'],
      suivi,
    ]);
  });

  it('gives validation "A valider"', async () => {
    expect(await menuLinksFor('validation')).toEqual([
      dashboard,
      nouvelle,
      ['A valider', '/admin/treatment-reformes'],
      mesEnregistrements,
      suivi,
    ]);
  });

  it('gives publication "A publier" and the reform list', async () => {
    expect(await menuLinksFor('publication')).toEqual([
      dashboard,
      nouvelle,
      ['A publier', '/admin/treatment-reformes'],
      mesEnregistrements,
      liste,
      suivi,
    ]);
  });

  it('gives any other role no menu entry', async () => {
    expect(await menuLinksFor('parent')).toEqual([]);
  });
});
