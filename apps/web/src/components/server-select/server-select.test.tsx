import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-app.tsx';
import { SERVER_PAGE_SIZE, type ServerPage } from './server-page.ts';
import { ServerSelect } from './server-select.tsx';

interface Reforme {
  id: number;
  libref: string;
}

/** 1 234 reforms, the most recent first, searched and paged as the server does; the oldest has its own name. */
const REFORMES: Reforme[] = Array.from({ length: 1234 }, (_, index) => {
  const id = 1234 - index;
  return { id, libref: id === 1 ? 'Dématérialisation des procédures' : `Réforme n° ${id}` };
});

function fakeFetchPage(rows = REFORMES) {
  return vi.fn(async (search: string, page: number): Promise<ServerPage<Reforme>> => {
    const found = rows.filter((row) => row.libref.toLowerCase().includes(search.toLowerCase()));
    return {
      data: found.slice((page - 1) * SERVER_PAGE_SIZE, page * SERVER_PAGE_SIZE),
      current_page: page,
      last_page: Math.max(1, Math.ceil(found.length / SERVER_PAGE_SIZE)),
      total: found.length,
    };
  });
}

function Picker({
  fetchPage,
  initial = null,
  selectedLabel,
}: {
  fetchPage: ReturnType<typeof fakeFetchPage>;
  initial?: string | null;
  selectedLabel?: string;
}) {
  const [value, setValue] = useState<string | null>(initial);
  return (
    <>
      <ServerSelect
        label="Réforme"
        queryKey={['test-reformes']}
        fetchPage={fetchPage}
        toOption={(row) => ({ value: String(row.id), label: row.libref })}
        value={value}
        onChange={setValue}
        selectedLabel={selectedLabel}
        clearable
      />
      <p>Valeur : {value ?? 'aucune'}</p>
    </>
  );
}

function renderPicker(props: Parameters<typeof Picker>[0]) {
  const user = userEvent.setup({ delay: null });
  renderWithProviders(<Picker {...props} />);
  return { user, input: screen.getByRole('combobox', { name: 'Réforme' }) };
}

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');
const optionLabels = () =>
  within(screen.getByRole('listbox'))
    .queryAllByRole('option')
    .map((option) => option.textContent);

describe('ServerSelect', () => {
  it('shows the first page, says honestly how many there are, and loads the next page on "Voir plus"', async () => {
    const fetchPage = fakeFetchPage();
    const { user, input } = renderPicker({ fetchPage });
    await user.click(input);
    expect(await screen.findByRole('option', { name: 'Réforme n° 1234' })).toBeInTheDocument();
    expect(screen.getByRole('listbox', { name: 'Réforme' })).toBeInTheDocument();
    expect(optionLabels()).toHaveLength(SERVER_PAGE_SIZE + 1);
    expect(optionLabels().at(-1)).toBe('Voir plus');
    expect(plain(screen.getByRole('status').textContent)).toBe('20 sur 1 234 — précisez la recherche');

    await user.click(screen.getByRole('option', { name: 'Voir plus' }));
    expect(await screen.findByRole('option', { name: 'Réforme n° 1195' })).toBeInTheDocument();
    expect(plain(screen.getByRole('status').textContent)).toBe('40 sur 1 234 — précisez la recherche');
    expect(fetchPage).toHaveBeenLastCalledWith('', 2, expect.anything());
    // The list stays open for the choice.
    expect(screen.getByRole('listbox')).toBeInTheDocument();
  });

  it('asks the server once the typing pauses, with the trimmed text, and not for a single letter', async () => {
    const fetchPage = fakeFetchPage();
    const { user, input } = renderPicker({ fetchPage });
    await user.click(input);
    await screen.findByRole('option', { name: 'Réforme n° 1234' });

    await user.type(input, '7');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(fetchPage.mock.calls.map(([search]) => search)).toEqual(['']);

    await user.type(input, '7 ');
    expect(screen.getByRole('listbox')).toHaveTextContent('Chargement...');
    expect(await screen.findByRole('option', { name: 'Réforme n° 1177' })).toBeInTheDocument();
    expect(fetchPage.mock.calls.map(([search, page]) => [search, page])).toEqual([
      ['', 1],
      ['77', 1],
    ]);
    const matching = REFORMES.filter((row) => row.libref.includes('77')).length;
    expect(plain(screen.getByRole('status').textContent)).toBe(`20 sur ${matching} — précisez la recherche`);
  });

  it('chooses the oldest of 1 234 by typing part of its label, and keeps its label once the search changes', async () => {
    const fetchPage = fakeFetchPage();
    const { user, input } = renderPicker({ fetchPage });
    await user.click(input);
    await screen.findByRole('option', { name: 'Réforme n° 1234' });
    expect(screen.queryByRole('option', { name: 'Dématérialisation des procédures' })).not.toBeInTheDocument();
    await user.type(input, '  matérialisation ');
    await user.click(await screen.findByRole('option', { name: 'Dématérialisation des procédures' }));
    expect(fetchPage).toHaveBeenLastCalledWith('matérialisation', 1, expect.anything());

    expect(screen.getByText(/^Valeur :/)).toHaveTextContent(/^Valeur : 1$/);
    expect(input).toHaveValue('Dématérialisation des procédures');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    // Back to the first page, already loaded, which does not hold the choice: its label stays.
    await user.click(input);
    await screen.findByRole('option', { name: 'Réforme n° 1234' });
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(input).toHaveValue('Dématérialisation des procédures');
    await user.tab();
    expect(input).toHaveValue('Dématérialisation des procédures');
  });

  it("shows the caller's label of a choice that is on no loaded page", async () => {
    const fetchPage = fakeFetchPage();
    const { input } = renderPicker({ fetchPage, initial: '3', selectedLabel: 'Réforme n° 3' });
    expect(input).toHaveValue('Réforme n° 3');
    await waitFor(() => expect(fetchPage).toHaveBeenCalled());
    expect(input).toHaveValue('Réforme n° 3');
  });

  it('says "Aucun résultat trouvé" when the server finds nothing, and "Chargement..." while it looks', async () => {
    let release: () => void = () => {};
    const fetchPage = fakeFetchPage();
    const slow = vi.fn(async (search: string, page: number) => {
      if (search) await new Promise<void>((resolve) => (release = resolve));
      return fetchPage(search, page);
    });
    const { user, input } = renderPicker({ fetchPage: slow as never });
    await user.click(input);
    await screen.findByRole('option', { name: 'Réforme n° 1234' });
    await user.type(input, 'introuvable');
    await waitFor(() => expect(slow).toHaveBeenCalledWith('introuvable', 1, expect.anything()));
    expect(screen.getByRole('listbox')).toHaveTextContent('Chargement...');
    release();
    expect(await screen.findByText('Aucun résultat trouvé')).toBeInTheDocument();
    expect(screen.queryByRole('option')).not.toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('is usable from the keyboard: arrows to "Voir plus", Enter loads the next page, Enter chooses', async () => {
    const fetchPage = fakeFetchPage();
    const { user, input } = renderPicker({ fetchPage });
    await user.tab();
    expect(input).toHaveFocus();
    await screen.findByRole('option', { name: 'Réforme n° 1234' });
    // From the top, up goes round to the last option: "Voir plus".
    await user.keyboard('{ArrowDown}{ArrowUp}{Enter}');
    expect(await screen.findByRole('option', { name: 'Réforme n° 1195' })).toBeInTheDocument();
    // The keyboard goes on from the first new choice.
    await user.keyboard('{Enter}');
    expect(screen.getByText(/^Valeur :/)).toHaveTextContent(/^Valeur : 1214$/);
    expect(input).toHaveValue('Réforme n° 1214');
  });

  it('clears the choice when its text is erased and the field left', async () => {
    const fetchPage = fakeFetchPage();
    const { user, input } = renderPicker({ fetchPage, initial: '3', selectedLabel: 'Réforme n° 3' });
    await user.click(input);
    await user.clear(input);
    await user.tab();
    expect(screen.getByText(/^Valeur :/)).toHaveTextContent(/^Valeur : aucune$/);
  });
});
