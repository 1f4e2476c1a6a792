import { type Action, MESSAGES, TITLES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession } from '../../session/session.ts';
import { answer, type FakeRoute, fakeApi, lastBody } from '../../test/fake-api.ts';
import { aUser, renderApp, rightsOf, signInWith } from '../../test/render-app.tsx';
import type { Permission, Profiles, RoleProfile } from './access-api.ts';

const TAGS: Record<string, string> = { sectors: 'Secteurs', natures: 'Natures', profiles: 'Rôles & permissions' };
const FEATURE_IDS: Record<string, number> = { sectors: 8, natures: 10, profiles: 6 };

let nextPermission = 1;
const permission = (feature: string, action: Action): Permission => ({
  id: nextPermission++,
  name: `${feature}.${action}`,
  feature_id: FEATURE_IDS[feature],
  action,
  is_active: true,
  feature_name: feature,
  feature_tag: TAGS[feature],
});

const PERMISSIONS = [
  permission('sectors', 'list'),
  permission('sectors', 'add'),
  permission('natures', 'list'),
  permission('natures', 'delete'),
  permission('profiles', 'list'),
  permission('profiles', 'delete'),
];
const byName = (name: string) => PERMISSIONS.find((row) => row.name === name) as Permission;

let nextRight = 100;
const roleProfile = (id: number, name: string, rights: string[]): RoleProfile => ({
  id,
  name,
  canOverwrite: false,
  guard_name: 'api',
  requires_two_factor: false,
  is_builtin: id <= 5,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  is_active: true,
  permissions: rights.map((right) => ({ id: nextRight++, role_id: id, is_active: true, permission: byName(right) })),
});

const ADMIN = roleProfile(1, 'admin', ['profiles.list', 'profiles.delete', 'sectors.list', 'natures.list']);
const SAISIE = roleProfile(3, 'saisie', ['sectors.list', 'natures.list']);
const AUDIT = roleProfile(7, 'audit', []);
const PROFILES: Profiles = { roles: [ADMIN, SAISIE, AUDIT], permissions: PERMISSIONS };

async function openProfils(handlers: Record<string, FakeRoute> = {}, features = rightsOf('profiles')) {
  signInWith(features);
  const { calls } = fakeApi({ 'GET profiles': () => answer(PROFILES), ...handlers });
  const user = userEvent.setup();
  renderApp('/admin/profils');
  await screen.findByRole('heading', { name: 'Rôles & permissions', level: 1 }, { timeout: 5000 });
  await screen.findByRole('region', { name: 'saisie' });
  return { user, calls };
}

const card = (name: string) => screen.getByRole('region', { name });
const rightsIn = (name: string) =>
  within(card(name))
    .queryAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(0, 2)
        .map((cell) => cell.textContent)
        .join(' : '),
    );

describe('Rôles & permissions (spec §2.9)', { timeout: 20_000 }, () => {
  it('shows one card per role with its rights by feature and action', async () => {
    await openProfils();
    expect(rightsIn('admin')).toEqual([
      'Natures : Lister',
      'Rôles & permissions : Lister',
      'Rôles & permissions : Supprimer',
      'Secteurs : Lister',
    ]);
    expect(within(card('admin')).getByText('4 droit(s)')).toBeInTheDocument();
    expect(rightsIn('saisie')).toEqual(['Natures : Lister', 'Secteurs : Lister']);
    expect(within(card('audit')).getByText('Aucun droit')).toBeInTheDocument();
    for (const name of ['admin', 'saisie', 'audit']) {
      expect(within(card(name)).getByRole('button', { name: 'Copier vers' })).toBeInTheDocument();
      expect(within(card(name)).getByRole('button', { name: 'Ajouter un droit' })).toBeInTheDocument();
    }
    expect(within(card('saisie')).getByRole('button', { name: 'Retirer Secteurs : Lister' })).toBeInTheDocument();
  });

  it("filters a card's rights with its own search box, leaving the other cards alone", async () => {
    const { user } = await openProfils();
    await user.type(within(card('admin')).getByRole('textbox', { name: 'Rechercher un droit' }), 'secteur');
    expect(rightsIn('admin')).toEqual(['Secteurs : Lister']);
    expect(rightsIn('saisie')).toEqual(['Natures : Lister', 'Secteurs : Lister']);
    await user.type(within(card('admin')).getByRole('textbox', { name: 'Rechercher un droit' }), 'xyz');
    expect(within(card('admin')).getByText('Aucun résultat trouvé')).toBeInTheDocument();
    await user.click(within(card('admin')).getByRole('button', { name: 'Effacer la recherche' }));
    expect(rightsIn('admin')).toHaveLength(4);
  });

  it('grants several rights at once, among those the role does not hold', async () => {
    const { user, calls } = await openProfils({ 'POST profiles': () => answer(SAISIE, MESSAGES.rightsGranted) });
    await user.click(within(card('saisie')).getByRole('button', { name: 'Ajouter un droit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ajouter un droit au rôle saisie' });
    const submit = within(dialog).getByRole('button', { name: 'Ajouter' });
    expect(submit).toBeDisabled();

    await user.click(within(dialog).getByLabelText(/^Droits/, { selector: 'input' }));
    const offered = screen.getAllByRole('option').map((option) => option.textContent);
    expect(offered).toEqual(
      expect.arrayContaining([
        'Natures : Supprimer',
        'Secteurs : Ajouter',
        'Rôles & permissions : Lister',
        'Rôles & permissions : Supprimer',
      ]),
    );
    expect(offered).not.toContain('Secteurs : Lister');
    expect(offered).not.toContain('Natures : Lister');
    await user.click(screen.getByRole('option', { name: 'Secteurs : Ajouter' }));
    await user.click(screen.getByRole('option', { name: 'Natures : Supprimer' }));
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);

    expect(await screen.findByText(MESSAGES.rightsGranted)).toBeInTheDocument();
    expect(lastBody(calls, 'POST', 'profiles')).toEqual({
      id: 3,
      permissions: [byName('sectors.add').id, byName('natures.delete').id],
    });
    // The cards and the signed-in user's rights are read again (the latter once already on arrival).
    await waitFor(() => expect(calls.filter((call) => call.path === 'profiles' && call.method === 'GET')).toHaveLength(2));
    expect(calls.filter((call) => call.path === 'api/user')).toHaveLength(2);
  });

  it('copies the rights of a role to a target role, required', async () => {
    const { user, calls } = await openProfils({ 'POST profiles-copy': () => answer(AUDIT, MESSAGES.rightsCopied) });
    await user.click(within(card('saisie')).getByRole('button', { name: 'Copier vers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copier les droits du rôle saisie' });
    const submit = within(dialog).getByRole('button', { name: 'Copier' });
    expect(submit).toBeDisabled();
    const target = within(dialog).getByRole('combobox', { name: /Rôle cible/ });
    await user.click(target);
    expect(screen.queryByRole('option', { name: 'saisie' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.tab();
    expect(await within(dialog).findByText('Le rôle cible est requis')).toBeInTheDocument();

    await user.click(target);
    await user.click(await screen.findByRole('option', { name: 'audit' }));
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByText(MESSAGES.rightsCopied)).toBeInTheDocument();
    expect(lastBody(calls, 'POST', 'profiles-copy')).toEqual({ id: 3, role_id: 7 });
  });

  it('revokes a right after "Voulez vous retirer ce droit ?"', async () => {
    const right = SAISIE.permissions.find((row) => row.permission.name === 'sectors.list');
    const { user, calls } = await openProfils({ [`PATCH profiles/${right?.id}`]: () => ({ body: { message: MESSAGES.rightRevoked } }) });
    await user.click(within(card('saisie')).getByRole('button', { name: 'Retirer Secteurs : Lister' }));
    const confirm = await screen.findByRole('dialog', { name: 'Retirer un droit' });
    expect(within(confirm).getByText(MESSAGES.revokeQuestion)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Annuler' }));
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);

    await user.click(within(card('saisie')).getByRole('button', { name: 'Retirer Secteurs : Lister' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Retirer un droit' })).getByRole('button', { name: 'Oui, continuer' }),
    );
    expect(await screen.findByText(MESSAGES.rightRevoked)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PATCH' && call.path === `profiles/${right?.id}`)).toBe(true);
  });

  it('titles a refusal "Gestion des profils"', async () => {
    const { user } = await openProfils({ 'POST profiles-copy': () => ({ status: 403, body: { message: MESSAGES.forbidden } }) });
    await user.click(within(card('saisie')).getByRole('button', { name: 'Copier vers' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copier les droits du rôle saisie' });
    await user.click(within(dialog).getByRole('combobox', { name: /Rôle cible/ }));
    await user.click(await screen.findByRole('option', { name: 'admin' }));
    await user.click(within(dialog).getByRole('button', { name: 'Copier' }));
    expect(await screen.findByText(MESSAGES.forbidden)).toBeInTheDocument();
    expect(screen.getByText(TITLES.profiles)).toBeInTheDocument();
  });

  it("follows a change of the signed-in user's own rights at once", async () => {
    const right = ADMIN.permissions.find((row) => row.permission.name === 'profiles.delete');
    let revoked = false;
    const { user } = await openProfils({
      [`PATCH profiles/${right?.id}`]: () => {
        revoked = true;
        return { body: { message: MESSAGES.rightRevoked } };
      },
      // Once revoked, the signed-in admin no longer holds profiles.delete.
      'GET api/user': () => answer({ ...aUser(), features: revoked ? ['profiles.list', 'profiles.add'] : rightsOf('profiles') }),
    });
    await user.click(within(card('admin')).getByRole('button', { name: 'Retirer Rôles & permissions : Supprimer' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Retirer un droit' })).getByRole('button', { name: 'Oui, continuer' }),
    );
    await waitFor(() => expect(within(card('admin')).queryAllByRole('button', { name: /^Retirer/ })).toHaveLength(0));
    expect(getSession().features).toEqual(['profiles.list', 'profiles.add']);
    expect(within(card('admin')).getByRole('button', { name: 'Ajouter un droit' })).toBeInTheDocument();
  });

  it('offers nothing to change without the rights', async () => {
    await openProfils({}, ['profiles.list']);
    expect(screen.queryByRole('button', { name: 'Copier vers' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ajouter un droit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Retirer/ })).not.toBeInTheDocument();
    expect(rightsIn('saisie')).toEqual(['Natures : Lister', 'Secteurs : Lister']);
  });

  it('titles a failed load "Gestion des profils"', async () => {
    signInWith(rightsOf('profiles'));
    fakeApi({ 'GET profiles': () => ({ status: 403, body: { message: MESSAGES.forbidden } }) });
    renderApp('/admin/profils');
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent(TITLES.profiles);
    expect(alert).toHaveTextContent(MESSAGES.forbidden);
  });
});
