import { describe, expect, it } from 'vitest';
import { createOwnedDatabase, createTestDatabase } from '../test/test-database.ts';
import { openDatabase } from './open-database.ts';

/** DATABASE_URL: the operator's PostgreSQL. A superuser works (CI runs so), but production is told to use an owner role. */
describe('openDatabase on DATABASE_URL', { timeout: 30_000 }, () => {
  async function messagesOpening(url: string): Promise<string[]> {
    const messages: string[] = [];
    const database = await openDatabase(
      { databaseUrl: url, databasePoolMax: 1, embeddedDir: '/nonexistent', legacyPgliteDir: '/nonexistent' },
      { log: (message) => messages.push(message) },
    );
    await database.close();
    return messages;
  }

  it('warns, in French, when the role of DATABASE_URL is a superuser, and starts all the same', async () => {
    const scratch = await createTestDatabase('empty');
    try {
      expect(await messagesOpening(scratch.url)).toEqual([
        expect.stringMatching(/^DATABASE_URL se connecte avec le rôle .* superutilisateur PostgreSQL/),
      ]);
    } finally {
      await scratch.close();
    }
  });

  it('says nothing when that role owns its database without being a superuser', async () => {
    const owned = await createOwnedDatabase();
    try {
      expect(await messagesOpening(owned.database.url)).toEqual([]);
    } finally {
      await owned.drop();
    }
  });
});
