import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import type { MenuEntry, RoleName } from '@reformes/domain';

/** The password of every demo account (architecture §5). */
export const DEMO_PASSWORD = 'Reformes2026!';

export interface DemoAccount {
  role: RoleName;
  email: string;
  /** What the toolbar shows: first name then last name. */
  name: string;
}

/** The five demo accounts of the seeded database, one per role. */
export const DEMO_ACCOUNTS: Record<RoleName, DemoAccount> = {
  admin: { role: 'admin', email: 'admin@reformes.test', name: 'Claire Martin' },
  'saisie central': { role: 'saisie central', email: 'central@reformes.test', name: 'Louis Bernard' },
  saisie: { role: 'saisie', email: 'saisie@reformes.test', name: 'Awa Dubois' },
  validation: { role: 'validation', email: 'validation@reformes.test', name: 'Jean-Paul Moreau' },
  publication: { role: 'publication', email: 'publication@reformes.test', name: 'Sophie Laurent' },
};

/** A Mantine toast (or alert-style toast) holding this text. */
export function toast(page: Page, text: string): Locator {
  return page.getByRole('alert').filter({ hasText: text });
}

export function sideMenu(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Menu principal' });
}

export function userMenuButton(page: Page, name: string): Locator {
  return page.getByRole('button', { name: `Menu utilisateur : ${name}` });
}

/** Fills the login form and submits it, without waiting for the outcome. */
export async function submitLogin(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('textbox', { name: 'Mot de passe' }).fill(password);
  await page.getByRole('button', { name: 'Se connecter' }).click();
}

/** Signs in through /login and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'CONNEXION' })).toBeVisible();
  await submitLogin(page, email, password);
  await expect(page).toHaveURL('/admin/dashboard');
  await expect(page.getByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeVisible();
}

/**
 * The side menu as a tree, read from the page: a link is an entry, a button is a group whose
 * children are the links of the block that follows it (the group's collapsible part).
 */
export async function readSideMenu(nav: Locator): Promise<MenuEntry[]> {
  return nav.evaluate((root) => {
    const label = (element: Element) => (element.textContent ?? '').trim();
    const route = (link: Element) => new URL((link as HTMLAnchorElement).href).pathname;
    const entries: MenuEntry[] = [];
    for (const element of Array.from(root.children)) {
      if (element.tagName === 'A') entries.push({ name: label(element), route: route(element) });
      if (element.tagName === 'BUTTON') {
        const block = element.nextElementSibling;
        const links = block ? Array.from(block.querySelectorAll('a')) : [];
        entries.push({ name: label(element), children: links.map((link) => ({ name: label(link), route: route(link) })) });
      }
    }
    return entries;
  });
}

/** Signs in through the API (for set-up and clean-up only); returns the bearer header and the user. */
export async function apiSignIn(
  request: APIRequestContext,
  email: string,
  password = DEMO_PASSWORD,
): Promise<{ headers: Record<string, string>; user: { id: number; structure_id: number } }> {
  const answer = await request.post('/api/v1/api/login', { data: { email, password, device: 'web' } });
  expect(answer.ok(), await answer.text()).toBe(true);
  const { data } = (await answer.json()) as { data: { access_token: string; user: { id: number; structure_id: number } } };
  return { headers: { Authorization: `Bearer ${data.access_token}`, Accept: 'application/json' }, user: data.user };
}

/**
 * A reform recorded through the API by `email` (stage 1 for saisie), for journeys that start from an existing
 * one: the first nature and coverage, in progress from April 2026 to March 2027.
 */
export async function createReformeAs(
  request: APIRequestContext,
  email: string,
  libref: string,
  fields: Record<string, unknown> = {},
): Promise<{ id: number }> {
  const { headers } = await apiSignIn(request, email);
  const natures = await (await request.get('/api/v1/natures', { headers })).json();
  const covers = await (await request.get('/api/v1/covers', { headers })).json();
  const created = await request.post('/api/v1/reformes', {
    headers,
    data: {
      libref,
      typeref: 'TRANSVERSALE',
      nature_id: natures.data[0].id,
      couverture_id: covers.data[0].id,
      objectif_glob: 'Supprimer la carte papier',
      popul_cible: 'Assurés sociaux',
      struct_impl: 'Ministère de la Santé',
      date_debut: '2026-04-01',
      date_fin: '2027-03-31',
      etat_mor: 'en_cours',
      ...fields,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).data as { id: number };
}
