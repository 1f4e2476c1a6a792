import { type AnswerOf, PUBLIC_MESSAGES, type PUBLIC_ROUTES, pageTitle } from '@reformes/domain';
import { PageApiError, pageRequest } from '../api.ts';
import { byId } from '../dom.ts';
import { html, render } from '../html.ts';
import { errorHtml } from './public-markup.ts';
import { fromKey, PUBLIC_PATHS } from './public-paths.ts';
import { reformeSheetHtml } from './public-reforme-markup.ts';

type DetailAnswer = AnswerOf<typeof PUBLIC_ROUTES.detail>;

/** The reform's id in `/accueil/reformes/:id`, or NaN. */
export const reformeIdOf = (pathname: string) => Number(/^\/accueil\/reformes\/([^/]+)\/?$/.exec(pathname)?.[1]);

/**
 * /accueil/reformes/:id, open to everyone: a published reform, its objectives' progress and its results' latest
 * values and charts; "Retour à la liste" leads back to the list as it was filtered.
 */
export async function startPublicReforme(): Promise<void> {
  const id = reformeIdOf(window.location.pathname);
  const sheet = byId('reforme');
  byId<HTMLAnchorElement>('back-to-list').href = `/accueil${Number.isInteger(id) ? (sessionStorage.getItem(fromKey(id)) ?? '') : ''}`;
  sheet.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLButtonElement>('button[data-chart-table]');
    if (!button) return;
    const panel = document.getElementById(button.dataset.chartTable ?? '');
    if (!panel) return;
    panel.hidden = !panel.hidden;
    button.setAttribute('aria-expanded', String(!panel.hidden));
    const label = button.querySelector('span');
    if (label) label.textContent = panel.hidden ? 'Afficher les données du graphique' : 'Masquer les données du graphique';
  });

  const notFound = () => {
    render(sheet, html`<h1>${PUBLIC_MESSAGES.title}</h1><p>${PUBLIC_MESSAGES.notFound}</p>`);
  };
  if (!Number.isInteger(id) || id <= 0) return notFound();
  try {
    const { data } = await pageRequest<DetailAnswer>('GET', PUBLIC_PATHS.detail(id), { action: 'show' });
    document.title = pageTitle(data.libref);
    render(sheet, reformeSheetHtml(data));
  } catch (error) {
    if (error instanceof PageApiError && error.status === 404) return notFound();
    render(sheet, errorHtml(PUBLIC_MESSAGES.title, error instanceof Error ? error.message : String(error)));
  }
}
