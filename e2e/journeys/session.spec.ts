import { expect, test } from '@playwright/test';
import { DEMO_ACCOUNTS, sideMenu, signIn, submitLogin, toast, userMenuButton } from '../support/app.ts';

const NOT_FOUND = "Page non trouvée. La page à laquelle vous essayez d'accéder n'existe pas !";
const saisie = DEMO_ACCOUNTS.saisie;

test.describe('signed in', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, saisie.email);
  });

  test('logs out through the user menu, back to /login, and /admin/dashboard is closed again', async ({ page }) => {
    await userMenuButton(page, saisie.name).click();
    const menu = page.getByRole('menu');
    await expect(menu).toContainText(saisie.name);
    await expect(menu).toContainText(saisie.email);
    // Spec §2.2: a profile-edit entry and a logout entry (the account page's entry sits between them).
    await expect(menu.getByRole('menuitem').first()).toHaveText('Mon profil');
    await expect(menu.getByRole('menuitem').last()).toHaveText('Déconnexion');

    await menu.getByRole('menuitem', { name: 'Déconnexion' }).click();
    await expect(page).toHaveURL('/login');
    const farewell = toast(page, 'Déconnexion réussie');
    await expect(farewell).toBeVisible();
    await expect(farewell).toContainText('Connexion');
    await expect(page.getByRole('heading', { name: 'CONNEXION' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('current_user'))).toBeNull();

    await page.goto('/admin/dashboard');
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('heading', { name: 'CONNEXION' })).toBeVisible();
  });

  test('a signed-in visitor opening a sign-in screen is sent to the dashboard', async ({ page }) => {
    for (const path of ['/auth/login', '/login', '/admin/login', '/admin']) {
      await page.goto(path);
      await expect(page, `depuis ${path}`).toHaveURL('/admin/dashboard');
      await expect(page.getByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeVisible();
    }
  });

  test('an unknown back-office page shows the not-found message inside the shell', async ({ page }) => {
    await page.goto('/admin/page-inexistante');
    await expect(page.getByRole('main').getByText(NOT_FOUND)).toBeVisible();
    await expect(sideMenu(page)).toBeVisible();
    await expect(userMenuButton(page, saisie.name)).toBeVisible();
  });

  test('the burger button hides and shows the side menu', async ({ page }) => {
    const burger = page.getByRole('button', { name: 'Afficher/masquer le menu' });
    const nav = sideMenu(page);
    const heading = page.getByRole('heading', { name: 'Tableau de bord', level: 1 });
    await expect(burger).toHaveAttribute('aria-expanded', 'true');
    await expect(sideMenu(page).getByRole('link', { name: 'Tableau de bord' })).toBeInViewport();

    await burger.click();
    await expect(burger).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).not.toBeInViewport();
    await expect(sideMenu(page).getByRole('link', { name: 'Tableau de bord' })).not.toBeInViewport();
    // The content takes the freed width.
    await expect.poll(async () => (await heading.boundingBox())?.x).toBeLessThan(100);

    await burger.click();
    await expect(burger).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeInViewport();
    await expect(sideMenu(page).getByRole('link', { name: 'Tableau de bord' })).toBeInViewport();
    await expect.poll(async () => (await heading.boundingBox())?.x).toBeGreaterThanOrEqual(250);
    await sideMenu(page).getByRole('link', { name: 'Mes enregistrements' }).click();
    await expect(page).toHaveURL('/admin/mylist-reformes');
  });
});

test.describe('anonymous', () => {
  test('the back-office sends an anonymous visitor to the login screen', async ({ page }) => {
    for (const path of ['/admin/dashboard', '/admin', '/admin/users']) {
      await page.goto(path);
      await expect(page, `depuis ${path}`).toHaveURL('/login');
      await expect(page.getByRole('heading', { name: 'CONNEXION' })).toBeVisible();
    }
  });

  test('the root goes to the public list /accueil', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL('/accueil');
    await expect(page.getByRole('heading', { name: 'Réformes publiées' })).toBeVisible();
  });

  test('an unknown path shows the not-found page with a link back to the root', async ({ page }) => {
    for (const path of ['/nulle-part', '/404']) {
      await page.goto(path);
      await expect(page.getByText(NOT_FOUND)).toBeVisible();
    }
    const back = page.getByRole('link', { name: "Retour à l'accueil" });
    await expect(back).toHaveAttribute('href', '/');
    await back.click();
    await expect(page).toHaveURL('/accueil');
  });

  test('/auth/recovery-password without a token goes to /admin/login', async ({ page }) => {
    await page.goto('/auth/recovery-password');
    await expect(page).toHaveURL('/admin/login');
    await expect(page.getByRole('heading', { name: 'CONNEXION' })).toBeVisible();
  });

  test('a wrong password shows the server message in a toast titled Connexion', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, saisie.email, 'MauvaisMotDePasse1');
    const failure = toast(page, 'Email ou mot de passe incorrect.');
    await expect(failure).toBeVisible();
    await expect(failure).toContainText('Connexion');
    await expect(page).toHaveURL('/login');
    await expect(page.getByRole('button', { name: 'Se connecter' })).toBeEnabled();
    expect(await page.evaluate(() => localStorage.getItem('access_token'))).toBeNull();
  });

  test('an empty form sends nothing and shows the field messages', async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (request) => {
      // The page asks once what it offers (the directory's button, issue 42); the form itself sends nothing.
      if (request.url().includes('/api/v1/') && !request.url().endsWith('/api/v1/auth/options')) calls.push(request.url());
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByText("L'email est requis")).toBeVisible();
    await expect(page.getByText('Le mot de passe est requis')).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Email' })).toHaveAttribute('aria-invalid', 'true');

    await page.getByRole('textbox', { name: 'Email' }).fill('pas-un-email');
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page.getByText("L'email n'est pas valide")).toBeVisible();
    expect(calls).toEqual([]);
    await expect(page).toHaveURL('/login');
  });

  test('the eye button shows and hides the password', async ({ page }) => {
    await page.goto('/login');
    const password = page.getByRole('textbox', { name: 'Mot de passe' });
    const toggle = page.getByRole('button', { name: 'Afficher le mot de passe' });
    await password.fill('Secret2026!');
    await expect(password).toHaveAttribute('type', 'password');

    await toggle.click();
    await expect(password).toHaveAttribute('type', 'text');
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    await expect(password).toHaveValue('Secret2026!');

    await toggle.click();
    await expect(password).toHaveAttribute('type', 'password');
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });
});
