import { IMPORT_MESSAGES, type ImportPreview, type ImportRow } from '@reformes/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, lastBody } from '../../../test/fake-api.ts';
import { renderApp, signInWithRole } from '../../../test/render-app.tsx';

/**
 * The upload goes by XMLHttpRequest (for its progress): this one hands it to the fake fetch of `fakeApi`, after
 * reporting half the file then all of it sent.
 */
class FetchingXhr {
  status = 0;
  responseText = '';
  upload: { onprogress?: (event: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  private method = 'GET';
  private url = '';
  private headers: Record<string, string> = {};
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader() {
    return 'application/json';
  }
  async send(body: FormData) {
    this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
    this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
    const response = await fetch(this.url, { method: this.method, headers: this.headers, body });
    this.status = response.status;
    this.responseText = await response.text();
    this.onload?.();
  }
}

const rows: ImportRow[] = [
  { line: 2, cells: { libref: 'Guichet importé', libobjectif: 'Simplifier', libresult: 'Démarches en ligne' } },
  { line: 3, cells: { libref: 'Réforme fautive', nature: 'Culturelle' } },
];
const withIssue: ImportPreview = {
  reformes: 2,
  valid: 1,
  validLines: 1,
  issues: [{ line: 3, column: 'Nature', message: 'Nature inconnue : « Culturelle »' }],
};
const clean: ImportPreview = { reformes: 1, valid: 1, validLines: 1, issues: [] };

async function chooseFile(user: ReturnType<typeof userEvent.setup>) {
  const file = new File(['Réforme;Nature'], 'reformes.csv', { type: 'text/csv' });
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  await user.upload(input, file);
  await user.click(screen.getByRole('button', { name: 'Lire le fichier' }));
}

describe('Importer des réformes', { timeout: 60_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('previews the file, drops a wrong line (checked again), then imports the rest after confirmation', async () => {
    vi.stubGlobal('XMLHttpRequest', FetchingXhr);
    signInWithRole('saisie central');
    const api = fakeApi({
      'POST reformes/import/preview': { body: { message: 'ok', data: { rows, ...withIssue } } },
      'POST reformes/import/check': { body: { message: 'ok', data: clean } },
      'POST reformes/import': { status: 201, body: { message: IMPORT_MESSAGES.imported(1), data: clean } },
    });
    const user = userEvent.setup();
    renderApp('/admin/import-reformes');
    expect(await screen.findByRole('heading', { name: IMPORT_MESSAGES.title, level: 1 })).toBeInTheDocument();
    await chooseFile(user);

    expect(
      await screen.findByText('2 ligne(s), 2 réforme(s) : 1 sans erreur (1 ligne(s)), 1 erreur(s) sur 1 ligne(s).'),
    ).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Lignes du fichier' });
    // Only the lines with errors at first.
    expect(within(table).getAllByRole('row')).toHaveLength(2);
    expect(within(table).getByText('Nature : Nature inconnue : « Culturelle »')).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Retirer la ligne 3' }));
    expect(await screen.findByText('1 ligne(s), 1 réforme(s) : 1 sans erreur (1 ligne(s)).')).toBeInTheDocument();
    expect(lastBody(api.calls, 'POST', 'reformes/import/check')).toEqual({ rows: [rows[0]] });

    await user.click(screen.getByRole('button', { name: 'Importer 1 réforme(s) sans erreur' }));
    const confirm = await screen.findByRole('dialog', { name: IMPORT_MESSAGES.title });
    await user.click(within(confirm).getByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText(IMPORT_MESSAGES.imported(1), { selector: '.mantine-Notification-description' })).toBeInTheDocument();
    expect(lastBody(api.calls, 'POST', 'reformes/import')).toEqual({ rows: [rows[0]] });
    expect(screen.getByRole('link', { name: 'Voir la liste des réformes' })).toHaveAttribute('href', '/admin/list-reformes');
  });

  it('refuses a file over the limit before sending it', async () => {
    signInWithRole('saisie central');
    const api = fakeApi({});
    const user = userEvent.setup();
    renderApp('/admin/import-reformes');
    await screen.findByRole('heading', { name: IMPORT_MESSAGES.title, level: 1 });
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    const big = new File(['x'], 'enorme.csv', { type: 'text/csv' });
    Object.defineProperty(big, 'size', { value: 50 * 1024 * 1024 });
    await user.upload(input, big);
    await user.click(screen.getByRole('button', { name: 'Lire le fichier' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(IMPORT_MESSAGES.tooLarge);
    expect(api.calls.filter((call) => call.path === 'reformes/import/preview')).toEqual([]);
  });

  it('shows the server’s refusal of a file where the preview would be', async () => {
    vi.stubGlobal('XMLHttpRequest', FetchingXhr);
    signInWithRole('saisie central');
    fakeApi({ 'POST reformes/import/preview': { status: 422, body: { message: IMPORT_MESSAGES.encoding } } });
    const user = userEvent.setup();
    renderApp('/admin/import-reformes');
    await screen.findByRole('heading', { name: IMPORT_MESSAGES.title, level: 1 });
    await chooseFile(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(IMPORT_MESSAGES.encoding);
    expect(screen.queryByRole('table', { name: 'Lignes du fichier' })).not.toBeInTheDocument();
  });
});
