import {
  type AnswerOf,
  PUBLIC_MESSAGES,
  type PUBLIC_ROUTES,
  pageWindow,
  REFORME_TYPES,
  type ReformeFilters,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MIN_LENGTH,
} from '@reformes/domain';
import { API_BASE, pageRequest } from '../api.ts';
import { byId } from '../dom.ts';
import { append, html, render } from '../html.ts';
import { errorHtml, FILTER_SELECTS, type FilterKey, optionHtml, rowHtml } from './public-markup.ts';
import { fromKey, PAGE_SIZE, PUBLIC_PATHS } from './public-paths.ts';

type PageAnswer = AnswerOf<typeof PUBLIC_ROUTES.page>;
type FiltersAnswer = AnswerOf<typeof PUBLIC_ROUTES.filters>;

/** The filters written in the address: `?structure_id=3&typeref=SECTORIELLE` (the search is handled apart). */
export function readFilters(params: URLSearchParams): ReformeFilters {
  const filters: ReformeFilters = {};
  for (const key of ['structure_id', 'nature_id', 'couverture_id'] as const) {
    const id = Number(params.get(key));
    if (Number.isInteger(id) && id > 0) filters[key] = id;
  }
  const typeref = params.get('typeref');
  if (typeref && (REFORME_TYPES as readonly string[]).includes(typeref)) filters.typeref = typeref as ReformeFilters['typeref'];
  return filters;
}

/** The open-data download of the list as it is filtered now: a plain link, no sign-in needed. */
export function openDataUrl(format: 'csv' | 'json', filters: ReformeFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const query = params.toString();
  return `${API_BASE}/${PUBLIC_PATHS.export(format)}${query ? `?${query}` : ''}`;
}

/**
 * /accueil (spec §2.5): the list's state lives in the address (`?typeref=SECTORIELLE&search=santé&page=2`), so that
 * a visitor can share or bookmark a filtered list and come back to it from a reform's page; the server filters,
 * searches and pages. The search is sent once the typing pauses; an answer overtaken by a newer request is dropped.
 */
export function startPublicList(): void {
  // The server sends this page for / too; the address then reads /accueil, as the back office's redirect did.
  if (window.location.pathname === '/') window.history.replaceState(null, '', `/accueil${window.location.search}`);
  const selects = Object.fromEntries(FILTER_SELECTS.map(({ key }) => [key, byId<HTMLSelectElement>(`filter-${key}`)])) as Record<
    FilterKey,
    HTMLSelectElement
  >;
  const search = byId<HTMLInputElement>('filter-search');
  const rows = byId('list-rows');
  const count = byId('list-count');
  const table = byId('list-table');
  const empty = byId('list-empty');
  const error = byId('list-error');
  const pages = byId('list-pages');
  const links = { csv: byId<HTMLAnchorElement>('open-data-csv'), json: byId<HTMLAnchorElement>('open-data-json') };

  let params = new URLSearchParams(window.location.search);
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const searchOf = (text: string) => (text.trim().length >= SEARCH_MIN_LENGTH ? { search: text.trim() } : {});
  const pageOf = () => Math.max(1, Number(params.get('page')) || 1);

  /** Writes the address; `replace` for each letter typed, a new history entry otherwise. */
  const update = (change: (next: URLSearchParams) => void, replace = false) => {
    const next = new URLSearchParams(params);
    change(next);
    params = next;
    const query = next.toString();
    const url = `${window.location.pathname}${query ? `?${query}` : ''}`;
    if (replace) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
  };

  const showControls = () => {
    const filters = readFilters(params);
    for (const { key } of FILTER_SELECTS) selects[key].value = filters[key] === undefined ? '' : String(filters[key]);
    search.value = params.get('search') ?? '';
  };

  const load = async () => {
    controller?.abort();
    const mine = new AbortController();
    controller = mine;
    const filters: ReformeFilters = { ...readFilters(params), ...searchOf(params.get('search') ?? '') };
    links.csv.href = openDataUrl('csv', filters);
    links.json.href = openDataUrl('json', filters);
    rows.setAttribute('aria-busy', 'true');
    const page = pageOf();
    try {
      const answer = await pageRequest<PageAnswer>('GET', PUBLIC_PATHS.page, {
        action: 'show',
        query: { per_page: PAGE_SIZE, page, ...filters },
        signal: mine.signal,
      });
      if (controller !== mine) return;
      draw(answer.data);
    } catch (failure) {
      if (controller !== mine || (failure instanceof DOMException && failure.name === 'AbortError')) return;
      render(error, errorHtml(PUBLIC_MESSAGES.title, failure instanceof Error ? failure.message : String(failure)));
      error.hidden = false;
      table.hidden = true;
      empty.hidden = true;
    } finally {
      if (controller === mine) rows.setAttribute('aria-busy', 'false');
    }
  };

  const draw = (data: PageAnswer['data']) => {
    const list = Array.isArray(data) ? { data, current_page: 1, per_page: data.length, total: data.length, last_page: 1 } : data;
    const first = (list.current_page - 1) * list.per_page;
    error.hidden = true;
    count.textContent = `${list.total} élément(s)`;
    render(rows, html`${list.data.map((row, index) => rowHtml(row, first + index + 1))}`);
    empty.hidden = list.data.length > 0;
    table.hidden = list.data.length === 0;
    const last = Math.max(1, list.last_page);
    const current = Math.min(pageOf(), last);
    pages.hidden = last <= 1;
    render(
      pages,
      last <= 1
        ? html``
        : html`<button type="button" class="btn btn-default btn-xs" data-page="${current - 1}"${current <= 1 ? html` disabled` : ''}>Précédent</button>${pageWindow(
            current,
            last,
          ).map(
            (number) =>
              html`<button type="button" class="btn btn-default btn-xs" data-page="${number}" aria-label="Page ${number}"${number === current ? html` aria-current="page"` : ''}>${number}</button>`,
          )}<button type="button" class="btn btn-default btn-xs" data-page="${current + 1}"${current >= last ? html` disabled` : ''}>Suivant</button>`,
    );
  };

  const loadOptions = async () => {
    try {
      const { data } = await pageRequest<FiltersAnswer>('GET', PUBLIC_PATHS.filters, { action: 'show' });
      const fill = (key: FilterKey, options: Array<[number, string]>) => {
        const select = selects[key];
        append(select, html`${options.map(([value, label]) => optionHtml(String(value), label))}`);
      };
      fill(
        'structure_id',
        data.structures.map((row) => [row.id, `${row.designation} (${row.sigl})`]),
      );
      fill(
        'nature_id',
        data.natures.map((row) => [row.id, row.libnature]),
      );
      fill(
        'couverture_id',
        data.covers.map((row) => [row.id, row.lib_couvert]),
      );
      showControls();
    } catch {
      // Without the options the list still works; the selects keep "Toutes".
    }
  };

  const reset = () => {
    clearTimeout(timer);
    update((next) => {
      for (const key of [...FILTER_SELECTS.map(({ key }) => key), 'search', 'page']) next.delete(key);
    });
    showControls();
    void load();
  };

  for (const { key } of FILTER_SELECTS) {
    selects[key].addEventListener('change', () => {
      update((next) => {
        if (selects[key].value) next.set(key, selects[key].value);
        else next.delete(key);
        next.delete('page');
      });
      void load();
    });
  }
  search.addEventListener('input', () => {
    const text = search.value.trim();
    const before = JSON.stringify(searchOf(params.get('search') ?? ''));
    const wasPage = pageOf();
    update((next) => {
      if (text) next.set('search', text);
      else next.delete('search');
      next.delete('page');
    }, true);
    clearTimeout(timer);
    // The server is asked once the typing pauses, and only when the search it would run changed.
    if (JSON.stringify(searchOf(text)) !== before || wasPage !== 1) timer = setTimeout(() => void load(), SEARCH_DEBOUNCE_MS);
  });
  byId('filter-reset').addEventListener('click', reset);
  byId('list-empty-reset').addEventListener('click', reset);
  pages.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-page]');
    if (!button || button.disabled) return;
    const target = Number(button.dataset.page);
    update((next) => (target > 1 ? next.set('page', String(target)) : next.delete('page')));
    void load();
    byId('list-table').scrollIntoView?.({ block: 'nearest' });
  });
  rows.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-reforme]');
    if (link) sessionStorage.setItem(fromKey(Number(link.dataset.reforme)), window.location.search);
  });
  window.addEventListener('popstate', () => {
    params = new URLSearchParams(window.location.search);
    showControls();
    void load();
  });

  showControls();
  void load();
  void loadOptions();
}
