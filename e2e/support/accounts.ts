import { type APIRequestContext, expect, type Page } from '@playwright/test';
import type { RoleName } from '@reformes/domain';
import { apiSignIn, DEMO_ACCOUNTS } from './app.ts';
import { outboxSnapshot, waitForMail } from './outbox.ts';

export interface TestAccount {
  id: number;
  email: string;
  /** What the toolbar shows: first name then last name. */
  name: string;
  password: string;
}

/** Different in every run and every call, so that accounts never collide. */
export function uniqueStamp(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}

/**
 * A throwaway account with a password of our choosing, made as an administrator would (temporary password by
 * mail, then the first-password change), for journeys that change a password or an email: the demo accounts
 * keep theirs, which no new password may repeat (it holds the app's name). Remove it with `deleteAccount`.
 */
export async function createAccount(
  request: APIRequestContext,
  person: { lastname: string; firstname: string; email: string; role?: RoleName },
  password: string,
): Promise<TestAccount> {
  const admin = await apiSignIn(request, DEMO_ACCOUNTS.admin.email);
  const before = await outboxSnapshot();
  const created = await request.post('/api/v1/users', {
    headers: { ...admin.headers, 'X-Action': 'add' },
    data: {
      lastname: person.lastname,
      firstname: person.firstname,
      email: person.email,
      address: 'Cité administrative',
      phone: '0700000000',
      structure_id: admin.user.structure_id,
      roles: [person.role ?? 'saisie'],
      is_signer: false,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { id } = ((await created.json()) as { data: { id: number } }).data;
  const [, temporary] = await waitForMail(person.email, before, /mot de passe temporaire : (\S+)/);

  const session = await apiSignIn(request, person.email, temporary);
  const changed = await request.post('/api/v1/api/change-first-password', {
    headers: session.headers,
    data: { password, confirm_password: password },
  });
  expect(changed.ok(), await changed.text()).toBe(true);
  return { id, email: person.email, name: `${person.firstname} ${person.lastname}`, password };
}

/**
 * Removes the account, once `page` is closed: a page signed in as it would see its session die and leave for the
 * sign-in page while the test's context closes, and Chromium then now and then never finishes closing it (about
 * 1 run in 12: "Tearing down context exceeded the test timeout"). Users meet no such race.
 */
export async function deleteAccount(request: APIRequestContext, id: number, page: Page): Promise<void> {
  await page.close();
  const { headers } = await apiSignIn(request, DEMO_ACCOUNTS.admin.email);
  const answer = await request.delete(`/api/v1/users/${id}`, { headers: { ...headers, 'X-Action': 'delete' } });
  expect(answer.ok(), await answer.text()).toBe(true);
}
