import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { DEFAULT_DIRECTORY_LABEL, DIRECTORY_MESSAGES } from '@reformes/domain';
import { DEMO_ACCOUNTS, signIn, toast, userMenuButton } from '../support/app.ts';
import { DIRECTORY_ACCOUNTS, E2E_DIRECTORY } from '../support/directory.ts';

const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(' ')}`)).toEqual([]);
}

/** The directory's own sign-in page: its identifier, then its button. */
async function signInAtDirectory(page: Page, sub: string) {
  await expect(page.getByRole('heading', { name: /Annuaire de l'administration/ })).toBeVisible();
  await page.getByLabel('Identifiant').fill(sub);
  await page.getByRole('button', { name: "Se connecter à l'annuaire" }).click();
}

// One story: the agent links the account, signs in and out through the directory; then the admin removes the link.
test.describe
  .serial("sign-in with the administration's directory (issue 42)", () => {
    test('« Mon compte » links the account to the directory, axe clean', async ({ page }) => {
      await signIn(page, DEMO_ACCOUNTS.validation.email);
      await page.goto('/admin/user-account');
      await page.getByRole('tab', { name: 'Annuaire' }).click();
      const panel = page.getByRole('tabpanel', { name: 'Annuaire' });
      await expect(panel.getByText(DIRECTORY_MESSAGES.notLinked)).toBeVisible();
      await expectAccessible(page);
      await panel.getByRole('button', { name: DIRECTORY_MESSAGES.linkButton }).click();
      await signInAtDirectory(page, DIRECTORY_ACCOUNTS.validation.sub);
      await expect(page).toHaveURL(/\/admin\/user-account\?tab=directory$/);
      await expect(toast(page, DIRECTORY_MESSAGES.linked)).toBeVisible();
      await expect(page.getByRole('tabpanel', { name: 'Annuaire' }).getByText(/agent\.validation/)).toBeVisible();
      await expect(page.getByRole('button', { name: DIRECTORY_MESSAGES.unlinkButton })).toBeEnabled();
    });

    test('the sign-in button leads through the directory to the dashboard; « Déconnexion » ends both sessions', async ({ page }) => {
      await page.goto('/auth/login');
      const button = page.getByRole('link', { name: DEFAULT_DIRECTORY_LABEL });
      await expect(button).toBeVisible();
      await expectAccessible(page);
      // Requests to our server once the provider answers: the callback page, then the dashboard's document.
      const documents: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'document' && request.url().startsWith(`http://127.0.0.1:${E2E_DIRECTORY.appPort}`))
          documents.push(new URL(request.url()).pathname);
      });
      await button.click();
      await signInAtDirectory(page, DIRECTORY_ACCOUNTS.validation.sub);
      await expect(page).toHaveURL('/admin/dashboard');
      await expect(page.getByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeVisible();
      expect(documents.slice(documents.indexOf('/auth/oidc/callback'))).toEqual(['/auth/oidc/callback', '/admin/dashboard']);

      await userMenuButton(page, DEMO_ACCOUNTS.validation.name).click();
      await page.getByRole('menuitem', { name: 'Déconnexion' }).click();
      await expect(page).toHaveURL(/\/auth\/login$/);
      await expect(toast(page, 'Déconnexion réussie')).toBeVisible();
      // The provider's session ended too: the button asks for the identifier again.
      await page.getByRole('link', { name: DEFAULT_DIRECTORY_LABEL }).click();
      await expect(page.getByLabel('Identifiant')).toBeVisible();
    });

    test('a person the application does not know gets an account « en attente », and is told so on the sign-in page', async ({ page }) => {
      await page.goto('/auth/login');
      await page.getByRole('link', { name: DEFAULT_DIRECTORY_LABEL }).click();
      await signInAtDirectory(page, DIRECTORY_ACCOUNTS.newcomer.sub);
      await expect(page).toHaveURL(/\/auth\/login$/);
      await expect(page.getByRole('alert').filter({ hasText: DIRECTORY_MESSAGES.pendingAccount })).toBeVisible();
      await expectAccessible(page);
    });

    test("the admin sees the user's link on its details and removes it", async ({ page }) => {
      await signIn(page, DEMO_ACCOUNTS.admin.email);
      await page.goto('/admin/users');
      await page.getByRole('textbox', { name: 'Rechercher' }).fill(DEMO_ACCOUNTS.validation.email);
      await page.getByRole('radio', { name: DEMO_ACCOUNTS.validation.name, exact: true }).check();
      await page.getByRole('button', { name: 'Consulter' }).click();
      const details = page.getByRole('dialog', { name: 'Détails des informations' });
      await expect(details.getByText(/agent\.validation/)).toBeVisible();
      await expectAccessible(page);
      await details.getByRole('button', { name: DIRECTORY_MESSAGES.adminUnlinkButton }).click();
      const confirm = page.getByRole('dialog', { name: DIRECTORY_MESSAGES.adminUnlinkButton });
      await confirm.getByRole('button', { name: 'Oui, continuer' }).click();
      await expect(details.getByText(DIRECTORY_MESSAGES.notLinked)).toBeVisible();
      await expect(toast(page, DIRECTORY_MESSAGES.unlinked)).toBeVisible();
    });

    test('« Mon compte » unlinks the account after a confirmation', async ({ page }) => {
      await signIn(page, DEMO_ACCOUNTS.validation.email);
      await page.goto('/admin/user-account?tab=directory');
      const panel = page.getByRole('tabpanel', { name: 'Annuaire' });
      await panel.getByRole('button', { name: DIRECTORY_MESSAGES.linkButton }).click();
      await signInAtDirectory(page, DIRECTORY_ACCOUNTS.validation.sub);
      await expect(toast(page, DIRECTORY_MESSAGES.linked)).toBeVisible();
      await page.getByRole('tabpanel', { name: 'Annuaire' }).getByRole('button', { name: DIRECTORY_MESSAGES.unlinkButton }).click();
      const confirm = page.getByRole('dialog', { name: DIRECTORY_MESSAGES.unlinkButton });
      await expect(confirm.getByText(DIRECTORY_MESSAGES.unlinkConfirm)).toBeVisible();
      await expectAccessible(page);
      await confirm.getByRole('button', { name: 'Oui, continuer' }).click();
      await expect(toast(page, DIRECTORY_MESSAGES.unlinked)).toBeVisible();
      await expect(page.getByRole('tabpanel', { name: 'Annuaire' }).getByText(DIRECTORY_MESSAGES.notLinked)).toBeVisible();
    });
  });
