import { ACTIONS, type Action, MESSAGES, TITLES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { answer, type FakeCall, type FakeRoute, fakeApi, lastBody } from '../../test/fake-api.ts';
import { renderApp, rightsOf, signInWith } from '../../test/render-app.tsx';
import type { Feature, Permission } from './access-api.ts';

const FEATURES: Feature[] = [
  { id: 1, name: 'dashboard', link: '/admin/dashboard', tag: 'Tableau de bord' },
  { id: 8, name: 'sectors', link: '/admin/sectors', tag: 'Secteurs' },
  { id: 10, name: 'natures', link: '/admin/natures', tag: 'Natures' },
];

let nextId = 1;
const permission = (feature: Feature, action: Action, is_active = true): Permission => ({
  id: nextId++,
  name: `${feature.name}.${action}`,
  feature_id: feature.id,
  action,
  is_active,
  feature_name: feature.name,
  feature_tag: feature.tag,
});

/** 12 permissions, sorted by name as the server sends them: two pages. */
const PERMISSIONS = [
  ...ACTIONS.map((action) => permission(FEATURES[2], action, action !== 'status')),
  ...ACTIONS.map((action) => permission(FEATURES[1], action)),
].sort((a, b) => a.name.localeCompare(b.name));

async function openPermissions(handlers: Record<string, FakeRoute> = {}, features = rightsOf('permissions', 'features')) {
  signInWith(features);
  const { calls } = fakeApi({
    // Never paginated: the same whole list whatever the query.
    'GET permissions': () => ({ body: { message: 'ok', isPaginate: false, data: PERMISSIONS } }),
    'GET features': () => ({ body: { message: 'ok', isPaginate: false, data: FEATURES } }),
    ...handlers,
  });
  const user = userEvent.setup();
  renderApp('/admin/permissions');
  await screen.findByRole('heading', { name: 'Liste des permissions', level: 1 }, { timeout: 5000 });
  await screen.findByRole('radio', { name: 'Natures : Ajouter' });
  return { user, calls };
}

const toolbar = () => screen.getByRole('toolbar', { name: 'Actions' });
const rowTexts = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(1)
        .map((cell) => cell.textContent),
    );
const searches = (calls: FakeCall[]) => calls.filter((call) => call.path === 'permissions-search');

describe('permissions list (spec §2.9)', { timeout: 20_000 }, () => {
  it('lists the feature, the action in French, the name and the status, 10 a page from the whole list', async () => {
    const { user, calls } = await openPermissions();
    for (const column of ['Fonctionnalité', 'Action', 'Nom', 'Statut']) {
      expect(screen.getByRole('columnheader', { name: column })).toBeInTheDocument();
    }
    expect(screen.getByText('12 élément(s)')).toBeInTheDocument();
    expect(rowTexts()).toHaveLength(10);
    expect(rowTexts()[0]).toEqual(['Natures', 'Ajouter', 'natures.add', 'Actif']);
    expect(rowTexts()).toContainEqual(['Natures', 'Activer/Désactiver', 'natures.status', 'Bloqué']);
    expect(rowTexts()).toContainEqual(['Natures', 'Lister', 'natures.list', 'Actif']);
    expect(rowTexts()).toContainEqual(['Natures', 'Consulter', 'natures.show', 'Actif']);
    expect(rowTexts()).toContainEqual(['Natures', 'Modifier', 'natures.edit', 'Actif']);

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(rowTexts()).toHaveLength(2);
    expect(screen.getByText('12 élément(s)')).toBeInTheDocument();
    // One request for the whole list: paging happens here.
    expect(calls.filter((call) => call.method === 'GET' && call.path === 'permissions')).toHaveLength(1);
  });

  it('searches the whole list here, from page 1, never on the server', async () => {
    const { user, calls } = await openPermissions();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await user.type(screen.getByRole('textbox', { name: 'Rechercher' }), 'secteurs');
    await waitFor(() => expect(screen.getByText('6 élément(s)')).toBeInTheDocument());
    expect(rowTexts().every(([feature]) => feature === 'Secteurs')).toBe(true);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();

    await user.clear(screen.getByRole('textbox', { name: 'Rechercher' }));
    await user.type(screen.getByRole('textbox', { name: 'Rechercher' }), 'introuvable');
    expect(await screen.findByText('Aucun résultat trouvé')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(searches(calls)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Réinitialiser la recherche' }));
    expect(await screen.findByText('12 élément(s)')).toBeInTheDocument();
  });

  it('creates the permissions of a system feature and several actions', async () => {
    const { user, calls } = await openPermissions({
      'POST permissions': () => ({ status: 201, body: { message: MESSAGES.permissionsCreated, data: [] } }),
    });
    await user.click(within(toolbar()).getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enregistrer une permission' });
    const submit = within(dialog).getByRole('button', { name: 'Enregistrer' });
    expect(submit).toBeDisabled();

    const actions = within(dialog).getByRole('group', { name: /Actions/ });
    expect(
      within(actions)
        .getAllByRole('checkbox')
        .map((box) => box.getAttribute('value')),
    ).toEqual([...ACTIONS]);
    await user.click(within(actions).getByRole('checkbox', { name: 'Lister' }));
    await user.click(within(actions).getByRole('checkbox', { name: 'Lister' }));
    expect(await within(dialog).findByText('Au moins une action est requise')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('combobox', { name: /Fonctionnalité système/ }));
    await user.click(await screen.findByRole('option', { name: 'Tableau de bord' }));
    await user.click(within(actions).getByRole('checkbox', { name: 'Ajouter' }));
    await user.click(within(actions).getByRole('checkbox', { name: 'Activer/Désactiver' }));
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);

    expect(await screen.findByText(MESSAGES.permissionsCreated)).toBeInTheDocument();
    expect(lastBody(calls, 'POST', 'permissions')).toEqual({ feature_id: 1, actions: ['add', 'status'] });
  });

  it('requires the system feature', async () => {
    const { user } = await openPermissions();
    await user.click(within(toolbar()).getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enregistrer une permission' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Lister' }));
    await user.click(within(dialog).getByRole('combobox', { name: /Fonctionnalité système/ }));
    await user.keyboard('{Escape}');
    await user.tab();
    expect(await within(dialog).findByText('La fonctionnalité système est requise')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Enregistrer' })).toBeDisabled();
  });

  it('shows a duplicate in an alert titled "Gestion des permissions"', async () => {
    const { user } = await openPermissions({
      'POST permissions': () => ({ status: 409, body: { message: MESSAGES.permissionExists } }),
    });
    await user.click(within(toolbar()).getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enregistrer une permission' });
    await user.click(within(dialog).getByRole('combobox', { name: /Fonctionnalité système/ }));
    await user.click(await screen.findByRole('option', { name: 'Natures' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Lister' }));
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText(MESSAGES.permissionExists)).toBeInTheDocument();
    expect(screen.getByText(TITLES.permissions)).toBeInTheDocument();
  });

  it('edits a permission one action at a time', async () => {
    const natureShow = PERMISSIONS.find((row) => row.name === 'natures.show') as Permission;
    const { user, calls } = await openPermissions({
      [`PUT permissions/${natureShow.id}`]: () => answer(natureShow, MESSAGES.updated),
    });
    await user.click(screen.getByRole('radio', { name: 'Natures : Consulter' }));
    await user.click(within(toolbar()).getByRole('button', { name: 'Éditer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier une permission' });
    expect(within(dialog).getByRole('combobox', { name: /Fonctionnalité système/ })).toHaveValue('Natures');
    expect(within(dialog).getByRole('checkbox', { name: 'Consulter' })).toBeChecked();

    await user.click(within(dialog).getByRole('checkbox', { name: 'Modifier' }));
    expect(await within(dialog).findByText(MESSAGES.permissionSingleAction)).toBeInTheDocument();
    const submit = within(dialog).getByRole('button', { name: 'Enregistrer' });
    expect(submit).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Consulter' }));
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByText(MESSAGES.updated)).toBeInTheDocument();
    expect(lastBody(calls, 'PUT', `permissions/${natureShow.id}`)).toEqual({ feature_id: 10, actions: ['edit'] });
  });

  it('activates a blocked permission', async () => {
    const natureStatus = PERMISSIONS.find((row) => row.name === 'natures.status') as Permission;
    const { user, calls } = await openPermissions({
      [`GET permissions/${natureStatus.id}/state/1`]: () => answer({ ...natureStatus, is_active: true }, MESSAGES.activated),
    });
    await user.click(screen.getByRole('radio', { name: 'Natures : Activer/Désactiver' }));
    expect(within(toolbar()).queryByRole('button', { name: 'Désactiver' })).not.toBeInTheDocument();
    await user.click(within(toolbar()).getByRole('button', { name: 'Activer' }));
    expect(await screen.findByText(MESSAGES.activated)).toBeInTheDocument();
    expect(calls.some((call) => call.path === `permissions/${natureStatus.id}/state/1`)).toBe(true);
  });

  it('shows a permission held by roles cannot be deleted, titled "Gestion des permissions"', async () => {
    const natureList = PERMISSIONS.find((row) => row.name === 'natures.list') as Permission;
    const { user } = await openPermissions({
      [`DELETE permissions/${natureList.id}`]: () => ({ status: 409, body: { message: MESSAGES.permissionInUse } }),
    });
    await user.click(screen.getByRole('radio', { name: 'Natures : Lister' }));
    await user.click(within(toolbar()).getByRole('button', { name: 'Supprimer' }));
    await user.click(await screen.findByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText(MESSAGES.permissionInUse)).toBeInTheDocument();
    expect(screen.getByText(TITLES.permissions)).toBeInTheDocument();
  });
});
