import { MESSAGES } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database }> = async (app, { database }) => {
  app.get('/health', { config: { access: 'public' }, schema: { tags: ['Service'], summary: 'État du service' } }, async () => {
    try {
      await database.db.execute(sql`select 1`);
    } catch {
      throw new AppError(503, 'Base de données indisponible.');
    }
    return ok({ status: 'ok', database: database.kind }, MESSAGES.healthy);
  });
};
