import { etatLabel, longDate, PUBLIC_MESSAGES, type PublicReforme, TEXT_LIMITS, TYPE_OPTIONS, typeLabel } from '@reformes/domain';
import { fieldHtml, icon } from '../dom.ts';
import { type Html, html } from '../html.ts';

/**
 * Markup of the public pages (spec §2.5, issue 34): the build writes the page (pages/prerender.ts), the page's script
 * (public-list.ts) fills it with the same functions; the reform's page is public-reforme-markup.ts.
 */

/** The header with the way in to the back office, then the page in <main>. */
export function publicShellHtml(body: Html): Html {
  return html`<header class="site-header"><div class="container row"><a href="/accueil" class="brand">Réformes</a><a href="/login" class="btn btn-light">${icon('login')}${PUBLIC_MESSAGES.signIn}</a></div></header><main class="container site-main stack">${body}</main>`;
}

export const COLUMNS = ['#', 'Libellé', 'Type', 'Période', 'Date début', 'Date fin', 'État'];
export const FILTER_SELECTS = [
  { key: 'structure_id', label: 'Structure', all: 'Toutes' },
  { key: 'nature_id', label: 'Nature', all: 'Toutes' },
  { key: 'couverture_id', label: 'Couverture', all: 'Toutes' },
  { key: 'typeref', label: 'Type de réforme', all: 'Tout' },
] as const;
export type FilterKey = (typeof FILTER_SELECTS)[number]['key'];

export const optionHtml = (value: string, label: string) => html`<option value="${value}">${label}</option>`;

const selectHtml = ({ key, label, all }: (typeof FILTER_SELECTS)[number]) =>
  html`<div class="field"><label for="filter-${key}">${label}</label><select id="filter-${key}" name="${key}" class="input">${optionHtml('', all)}${key === 'typeref' ? TYPE_OPTIONS.map((option) => optionHtml(option.value, option.label)) : ''}</select></div>`;

/** Rows of grey bars while the first page is on its way: the table keeps its height, nothing below moves. */
const skeletonRows = (count: number) =>
  Array.from({ length: count }, () => html`<tr>${COLUMNS.map(() => html`<td><span class="skeleton"></span></td>`)}</tr>`);

/** /accueil: filters, search, count, open-data links, the table and its pages, empty until public-list.ts fills them. */
export function publicListPageHtml(): Html {
  const search = fieldHtml({
    id: 'filter-search',
    name: 'search',
    label: 'Rechercher',
    type: 'search',
    placeholder: 'Libellé, objectif, structure...',
    maxLength: TEXT_LIMITS.search,
  });
  return publicShellHtml(
    html`<h1>${PUBLIC_MESSAGES.title}</h1><div class="filters" role="search" aria-label="Filtres des réformes publiées">${FILTER_SELECTS.map(selectHtml)}<div class="search-row">${search}<button type="button" id="filter-reset" class="btn btn-default btn-icon" aria-label="Réinitialiser les filtres" title="Réinitialiser les filtres">${icon('x')}</button></div></div><div class="row"><p id="list-count" aria-live="polite">0 élément(s)</p><div class="row-start" role="group" aria-label="${PUBLIC_MESSAGES.openData}"><a id="open-data-csv" class="btn btn-default btn-xs" download href="/api/v1/reformes/public/export.csv">${icon('download')}${PUBLIC_MESSAGES.downloadCsv}</a><a id="open-data-json" class="btn btn-default btn-xs" download href="/api/v1/reformes/public/export.json">${icon('download')}${PUBLIC_MESSAGES.downloadJson}</a></div></div><div id="list-error" hidden></div><div id="list-empty" class="panel panel-center" hidden><p>${PUBLIC_MESSAGES.noMatch}</p><button type="button" id="list-empty-reset" class="btn btn-light">${PUBLIC_MESSAGES.reset}</button></div><div id="list-table" class="table-scroll"><table class="table" aria-label="${PUBLIC_MESSAGES.title}"><thead><tr>${COLUMNS.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead><tbody id="list-rows" aria-busy="true">${skeletonRows(10)}</tbody></table></div><nav id="list-pages" class="pager" aria-label="Pages des réformes publiées" hidden></nav>`,
  );
}

/** One row of the list; `number` counts from 1 across pages. */
export function rowHtml(row: PublicReforme, number: number): Html {
  return html`<tr><td>${number}</td><td><a href="/accueil/reformes/${row.id}" data-reforme="${row.id}">${row.libref}</a></td><td>${typeLabel(row.typeref)}</td><td>${row.periodexe}</td><td>${longDate(row.date_debut)}</td><td>${longDate(row.date_fin)}</td><td>${etatLabel(row.etat_mor)}</td></tr>`;
}

/** An error in place of the table: the screen's title, then the message. */
export const errorHtml = (title: string, message: string) =>
  html`<div class="alert alert-red" role="alert"><span class="alert-title">${title}</span>${message}</div>`;
