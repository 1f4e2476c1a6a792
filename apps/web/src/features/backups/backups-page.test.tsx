import { BACKUP_MESSAGES, MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSignIn } from '../../session/session.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { aUser, renderApp } from '../../test/render-app.tsx';
import type { Backup } from './backups-api.ts';
import { formatSize } from './backups-page.tsx';

// The first screen of a file loads the lazy layout and page: slower than the default second on a busy machine.
const ADMIN_RIGHTS = ['backups.list', 'backups.show', 'backups.add', 'backups.edit', 'backups.delete', 'backups.status'];

function signInAsAdmin(features = ADMIN_RIGHTS) {
  storeSignIn({ access_token: 'access-1', refresh_token: 'refresh-1', expire_in: 900, features, user: aUser() });
}

const backup = (id: number, type: string, name = `reformes-20260711-${id}.${type === 'doc' ? 'tar.gz' : 'jsonl.gz'}`): Backup => ({
  id,
  name,
  type,
  size: 2048,
  is_active: true,
  created_at: '2026-07-11T09:30:00.000Z',
});

/** The paged answer of `GET api/backups` for page `page` of `total` backups. */
function backupsPage(rows: Backup[], page = 1, total = rows.length) {
  return {
    message: 'ok',
    isPaginate: true,
    data: { data: rows, current_page: page, per_page: 10, total, last_page: Math.max(1, Math.ceil(total / 10)) },
  };
}

/** The table once its rows are in. */
async function table() {
  const found = await screen.findByRole('table', { name: BACKUP_MESSAGES.title });
  await within(found).findAllByRole('radio');
  return found;
}

describe('Liste des sauvegardes', () => {
  // jsdom has no object URLs.
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:backup');
    URL.revokeObjectURL = vi.fn();
  });

  it('lists the backups: #, Libellé, Type, Fichier, Date (day/month/year) and the count', async () => {
    signInAsAdmin();
    fakeApi({ 'GET api/backups': { body: backupsPage([backup(2, 'embedded'), backup(1, 'doc')], 1, 2) } });
    renderApp('/admin/backups');

    const rows = within(await table()).getAllByRole('row');
    expect(rows[0]).toHaveTextContent(/#\s*Libellé\s*Type\s*Fichier\s*Date/);
    expect(rows[1]).toHaveTextContent('reformes-20260711-2.jsonl.gz');
    expect(rows[1]).toHaveTextContent('Base de données (PostgreSQL embarqué)');
    expect(rows[1]).toHaveTextContent('11/07/2026');
    expect(rows[2]).toHaveTextContent('Documents');
    expect(within(rows[2]).getByRole('button', { name: 'Télécharger reformes-20260711-1.tar.gz' })).toBeInTheDocument();
    expect(screen.getByText('2 élément(s)')).toBeInTheDocument();
  });

  it('runs a backup with a spinner, says "Base de donnée sauvegardée" and reloads the list', async () => {
    signInAsAdmin();
    let saved = false;
    let finish: () => void = () => {};
    const base = fakeApi({
      'GET api/backups': () => ({ body: backupsPage(saved ? [backup(2, 'embedded'), backup(1, 'doc')] : []) }),
      'GET api/save-db': () => {
        saved = true;
        return { body: { message: BACKUP_MESSAGES.saved, data: [backup(2, 'embedded'), backup(1, 'doc')] } };
      },
    });
    // save-db takes seconds: it answers only when the test says so.
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input).includes('save-db')) await new Promise<void>((resolve) => (finish = resolve));
        return base(input, init);
      }),
    );
    renderApp('/admin/backups');
    expect(await screen.findByText('Aucune sauvegarde')).toBeInTheDocument();

    const button = screen.getByRole('button', { name: 'Effectuer une sauvegarde' });
    await userEvent.click(button);
    await waitFor(() => expect(button).toHaveAttribute('data-loading', 'true'));
    expect(button).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent('Sauvegarde en cours...');

    finish();
    expect(await screen.findByText(BACKUP_MESSAGES.saved)).toBeInTheDocument();
    expect(await screen.findByText('2 élément(s)')).toBeInTheDocument();
    expect(button).toBeEnabled();
  });

  it('reports a failed backup under "Sauvegarde de la base de donnée" with the server message', async () => {
    signInAsAdmin();
    fakeApi({
      'GET api/backups': { body: backupsPage([]) },
      'GET api/save-db': { status: 500, body: { message: 'La commande pg_dump est introuvable.' } },
    });
    renderApp('/admin/backups');
    await userEvent.click(await screen.findByRole('button', { name: 'Effectuer une sauvegarde' }));

    const toast = (await screen.findByText('La commande pg_dump est introuvable.')).closest('.mantine-Notification-root');
    expect(toast).toHaveTextContent(BACKUP_MESSAGES.saveTitle);
  });

  it('shows the selected backup in an action bar with download and close', async () => {
    signInAsAdmin();
    fakeApi({ 'GET api/backups': { body: backupsPage([backup(2, 'embedded'), backup(1, 'doc')]) } });
    renderApp('/admin/backups');
    await table();
    expect(screen.queryByRole('group', { name: 'Sauvegarde sélectionnée' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('radio', { name: 'Sélectionner reformes-20260711-1.tar.gz' }));
    const bar = await screen.findByRole('group', { name: 'Sauvegarde sélectionnée' });
    expect(bar).toHaveTextContent('reformes-20260711-1.tar.gz');
    expect(bar).toHaveTextContent('2 Ko');
    expect(within(bar).getByRole('button', { name: 'Télécharger' })).toBeInTheDocument();

    await userEvent.click(within(bar).getByRole('button', { name: 'Fermer' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Sauvegarde sélectionnée' })).not.toBeInTheDocument());
    expect(screen.getByRole('radio', { name: 'Sélectionner reformes-20260711-1.tar.gz' })).not.toBeChecked();
  });

  it('downloads a file through the API with the bearer token, under its name', async () => {
    signInAsAdmin();
    const fetchMock = fakeApi({
      'GET api/backups': { body: backupsPage([backup(2, 'embedded'), backup(1, 'doc')]) },
      'GET storage/backups/docs/reformes-20260711-1.tar.gz': { body: 'archive' },
      'GET storage/backups/db_data/reformes-20260711-2.jsonl.gz': { body: 'dump' },
    });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.download} <- ${this.href}`);
    });
    renderApp('/admin/backups');
    await userEvent.click(await screen.findByRole('button', { name: 'Télécharger reformes-20260711-1.tar.gz' }));
    await waitFor(() => expect(clicked).toEqual(['reformes-20260711-1.tar.gz <- blob:backup']));

    // The action bar downloads the selected row: a database dump lives under db_data.
    await userEvent.click(screen.getByRole('radio', { name: 'Sélectionner reformes-20260711-2.jsonl.gz' }));
    await userEvent.click(
      within(await screen.findByRole('group', { name: 'Sauvegarde sélectionnée' })).getByRole('button', { name: 'Télécharger' }),
    );
    await waitFor(() => expect(clicked).toHaveLength(2));
    expect(clicked[1]).toBe('reformes-20260711-2.jsonl.gz <- blob:backup');

    const download = fetchMock.mock.calls.find(([url]) => String(url).endsWith('docs/reformes-20260711-1.tar.gz'));
    expect(new Headers(download?.[1]?.headers).get('Authorization')).toBe('Bearer access-1');
  });

  it('pages the list 10 at a time with the shared pagination', async () => {
    signInAsAdmin();
    const fetchMock = fakeApi({
      'GET api/backups': () => ({ body: backupsPage([backup(1, 'doc')], 1, 23) }),
    });
    renderApp('/admin/backups');
    expect(await screen.findByText('23 élément(s)')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url).includes('api/backups?per_page=10&page=3'))).toBe(true));
  });

  it('searches the backups on the server, shows the count, and reset shows them all again', async () => {
    signInAsAdmin();
    const all = Array.from({ length: 12 }, (_, index) => backup(12 - index, index % 2 ? 'doc' : 'embedded'));
    const base = fakeApi({});
    const listed: URL[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(String(input), 'http://localhost');
        if (!url.pathname.endsWith('/api/backups')) return base(input, init);
        listed.push(url);
        const search = url.searchParams.get('search') ?? '';
        const found = all.filter((row) => row.name.includes(search) || row.type.includes(search));
        const page = Number(url.searchParams.get('page'));
        return new Response(JSON.stringify(backupsPage(found.slice((page - 1) * 10, page * 10), page, found.length)), {
          headers: { 'Content-Type': 'application/json' },
        });
      }),
    );
    const user = userEvent.setup();
    renderApp('/admin/backups');
    expect(await screen.findByText('12 élément(s)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: BACKUP_MESSAGES.title })).getAllByRole('radio')).toHaveLength(2));

    await user.type(screen.getByRole('textbox', { name: 'Rechercher' }), 'tar.gz');
    expect(await screen.findByText('6 élément(s)')).toBeInTheDocument();
    const rows = within(await table())
      .getAllByRole('row')
      .slice(1);
    expect(rows).toHaveLength(6);
    for (const line of rows) expect(line).toHaveTextContent('Documents');
    // Numbered from 1 again: the search starts at page 1.
    expect(rows[0]).toHaveTextContent(/^1/);
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(listed.at(-1)?.search).toBe('?per_page=10&page=1&search=tar.gz');

    await user.click(screen.getByRole('button', { name: 'Réinitialiser la recherche' }));
    expect(screen.getByRole('textbox', { name: 'Rechercher' })).toHaveValue('');
    expect(await screen.findByText('12 élément(s)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(listed.at(-1)?.search).toBe('?per_page=10&page=1');
  });

  it('says "Aucun résultat trouvé" when nothing matches the search', async () => {
    signInAsAdmin();
    fakeApi({ 'GET api/backups': { body: backupsPage([]) } });
    renderApp('/admin/backups');
    expect(await screen.findByText('Aucune sauvegarde')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Rechercher' }), 'inconnue');
    expect(await screen.findByText('Aucun résultat trouvé')).toBeInTheDocument();
  });

  it('is refused to a user without the backups right, without calling the server', async () => {
    signInAsAdmin(['reformes.list']);
    const fetchMock = fakeApi({});
    renderApp('/admin/backups');
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.forbidden);
    expect(screen.queryByRole('button', { name: 'Effectuer une sauvegarde' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('backups'))).toBe(false);
  });
});

describe('formatSize', () => {
  it('writes sizes the French way', () => {
    expect(formatSize(512)).toBe('512 o');
    expect(formatSize(1536)).toBe('1,5 Ko');
    expect(formatSize(5 * 1024 ** 2)).toBe('5 Mo');
  });
});
