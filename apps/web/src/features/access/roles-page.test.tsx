import { MESSAGES, TITLES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, type FakeRoute, fakeApi, lastBody } from '../../test/fake-api.ts';
import { renderApp, rightsOf, signInWith } from '../../test/render-app.tsx';
import type { Role } from './access-api.ts';

const node = (id: number, name: string, route: string | null, children: Role['windows'] = []) => ({
  id,
  title: route === null,
  name,
  route,
  status: true,
  children,
});

const role = (id: number, name: string, overrides: Partial<Role> = {}): Role => ({
  id,
  name,
  canOverwrite: false,
  guard_name: 'api',
  requires_two_factor: false,
  is_builtin: id <= 5,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  is_active: true,
  windows: [],
  ...overrides,
});

const ROLES = [
  role(1, 'admin'),
  role(3, 'saisie', {
    canOverwrite: true,
    windows: [
      node(1, 'Tableau de bord', '/admin/dashboard'),
      node(2, 'Réformes', null, [node(3, 'Nouvelle', '/admin/create-reforme'), node(4, 'A transmettre', '/admin/treatment-reformes')]),
    ],
  }),
  role(6, 'contrôle', { is_active: false }),
];

/** `GET roles` answers a page with `per_page`, the whole list without. */
const listRoles: FakeRoute = (call) =>
  call.query.has('per_page')
    ? { body: { message: 'ok', isPaginate: true, data: { data: ROLES, current_page: 1, per_page: 10, total: ROLES.length, last_page: 1 } } }
    : { body: { message: 'ok', isPaginate: false, data: ROLES } };

async function openRoles(handlers: Record<string, FakeRoute> = {}, features = rightsOf('roles')) {
  signInWith(features);
  const { calls } = fakeApi({ 'GET roles': listRoles, ...handlers });
  const user = userEvent.setup();
  renderApp('/admin/roles');
  await screen.findByRole('heading', { name: 'Liste des rôles', level: 1 }, { timeout: 5000 });
  await screen.findByRole('radio', { name: 'saisie' });
  return { user, calls };
}

const toolbar = () => screen.getByRole('toolbar', { name: 'Actions' });

describe('roles list (spec §2.9)', { timeout: 20_000 }, () => {
  it('lists Libellé, "Fixer ce rôle ?" and the status, without "Consulter" (spec §6)', async () => {
    await openRoles();
    for (const column of ['Libellé', 'Fixer ce rôle ?', 'Statut']) {
      expect(screen.getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    const saisie = screen.getByRole('radio', { name: 'saisie' }).closest('tr') as HTMLElement;
    expect(within(saisie).getByText('Oui')).toBeInTheDocument();
    const controle = screen.getByRole('radio', { name: 'contrôle' }).closest('tr') as HTMLElement;
    expect(within(controle).getByText('Non')).toBeInTheDocument();
    expect(within(controle).getByText('Bloqué')).toBeInTheDocument();
    expect(screen.getByText('3 élément(s)')).toBeInTheDocument();

    const buttons = within(toolbar())
      .getAllByRole('button')
      .map((button) => button.textContent);
    expect(buttons).toEqual(['Ajouter', 'Éditer', 'Supprimer', 'Copier']);
  });

  it("shows the selected role's menu as a nested list in the side panel", async () => {
    const { user } = await openRoles();
    const panel = screen.getByRole('region', { name: 'Menu du rôle' });
    expect(within(panel).getByText('Sélectionnez un rôle pour voir son menu.')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'saisie' }));
    const shown = screen.getByRole('region', { name: 'Menu du rôle saisie' });
    const top = within(shown).getAllByRole('list')[0];
    const items = within(top).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Tableau de bord /admin/dashboard');
    const group = items[1];
    expect(group).toHaveTextContent(/^Réformes/);
    expect(
      within(within(group).getByRole('list'))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Nouvelle /admin/create-reforme', 'A transmettre /admin/treatment-reformes']);

    await user.click(screen.getByRole('radio', { name: 'admin' }));
    expect(within(screen.getByRole('region', { name: 'Menu du rôle admin' })).getByText("Ce rôle n'a aucun menu.")).toBeInTheDocument();
  });

  it('creates a role: Libellé required, "Fixer ce rôle ?" sent as a boolean, guard "api"', async () => {
    const { user, calls } = await openRoles({
      'POST roles': () => ({ status: 201, body: { message: MESSAGES.created, data: role(7, 'audit') } }),
    });
    await user.click(within(toolbar()).getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enregistrer un rôle' });
    const submit = within(dialog).getByRole('button', { name: 'Enregistrer' });
    const label = within(dialog).getByRole('textbox', { name: /Libellé/ });
    await user.type(label, 'x');
    await user.clear(label);
    expect(await within(dialog).findByText('Le libellé est requis')).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.type(label, 'audit');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Fixer ce rôle ?' }));
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByText(MESSAGES.created)).toBeInTheDocument();
    expect(lastBody(calls, 'POST', 'roles')).toEqual({ name: 'audit', canOverwrite: true, guard_name: 'api', requires_two_factor: false });
  });

  it('sends "Fixer ce rôle ?" left blank as false', async () => {
    const { user, calls } = await openRoles({
      'POST roles': () => ({ status: 201, body: { message: MESSAGES.created, data: role(7, 'audit') } }),
    });
    await user.click(within(toolbar()).getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enregistrer un rôle' });
    await user.type(within(dialog).getByRole('textbox', { name: /Libellé/ }), 'audit');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() =>
      expect(lastBody(calls, 'POST', 'roles')).toEqual({
        name: 'audit',
        canOverwrite: false,
        guard_name: 'api',
        requires_two_factor: false,
      }),
    );
  });

  it('copies the menu of the selected role to a target role, both required', async () => {
    const { user, calls } = await openRoles({
      'POST roles-windows-copy': () => answer([], MESSAGES.windowsCopied),
    });
    await user.click(screen.getByRole('radio', { name: 'saisie' }));
    await user.click(within(toolbar()).getByRole('button', { name: 'Copier' }));
    const dialog = await screen.findByRole('dialog', { name: "Copier le menu d'un rôle" });
    expect(within(dialog).getByRole('combobox', { name: /Ancien rôle/ })).toHaveValue('saisie');
    const submit = within(dialog).getByRole('button', { name: 'Copier' });
    expect(submit).toBeDisabled();

    const target = within(dialog).getByRole('combobox', { name: /Rôle cible/ });
    await user.click(target);
    // The source is not offered as its own target.
    expect(screen.queryByRole('option', { name: 'saisie' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'contrôle' }));
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);

    expect(await screen.findByText(MESSAGES.windowsCopied)).toBeInTheDocument();
    expect(lastBody(calls, 'POST', 'roles-windows-copy')).toEqual({ old_id: 3, new_id: 6 });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: "Copier le menu d'un rôle" })).not.toBeInTheDocument());
    // The list is read again, so the panel shows the copied menu once the target is selected.
    await waitFor(() => expect(calls.filter((call) => call.method === 'GET' && call.path === 'roles').length).toBeGreaterThan(2));
  });

  it('opens "Copier" without a selection and asks for the old role', async () => {
    const { user } = await openRoles();
    await user.click(within(toolbar()).getByRole('button', { name: 'Copier' }));
    const dialog = await screen.findByRole('dialog', { name: "Copier le menu d'un rôle" });
    const old = within(dialog).getByRole('combobox', { name: /Ancien rôle/ });
    expect(old).toHaveValue('');
    await user.click(old);
    await user.click(await screen.findByRole('option', { name: 'admin' }));
    await user.click(within(dialog).getByRole('combobox', { name: /Rôle cible/ }));
    await user.keyboard('{Escape}');
    await user.click(old);
    await user.keyboard('{Escape}');
    expect(await within(dialog).findByText('Le rôle cible est requis')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Copier' })).toBeDisabled();
  });

  it('titles a refusal "Gestion des rôles" (a built-in role cannot be deleted)', async () => {
    const { user } = await openRoles({ 'DELETE roles/1': () => ({ status: 409, body: { message: MESSAGES.builtinRole } }) });
    await user.click(screen.getByRole('radio', { name: 'admin' }));
    await user.click(within(toolbar()).getByRole('button', { name: 'Supprimer' }));
    await user.click(await screen.findByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText(MESSAGES.builtinRole)).toBeInTheDocument();
    expect(screen.getByText(TITLES.roles)).toBeInTheDocument();
  });

  it('offers Activer on a blocked role and titles its refusal "Gestion des rôles"', async () => {
    const { user } = await openRoles({ 'GET roles/6/state/1': () => ({ status: 403, body: { message: MESSAGES.forbidden } }) });
    await user.click(screen.getByRole('radio', { name: 'contrôle' }));
    await user.click(within(toolbar()).getByRole('button', { name: 'Activer' }));
    expect(await screen.findByText(MESSAGES.forbidden)).toBeInTheDocument();
    expect(screen.getByText(TITLES.roles)).toBeInTheDocument();
  });

  it('shows only the buttons the rights allow', async () => {
    await openRoles({}, ['roles.list']);
    expect(within(toolbar()).queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByRole('region', { name: 'Menu du rôle' })).toBeInTheDocument();
  });
});
