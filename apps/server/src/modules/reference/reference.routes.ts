import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { crudRoutes } from './crud-routes.ts';
import type { ReferenceServices } from './reference.resources.ts';

/** The nine routes of each reference list (spec §7 "Reference resources"), from its service. */
export const referenceRoutes: FastifyPluginAsyncZod<{ services: ReferenceServices }> = async (app, { services }) => {
  await app.register(crudRoutes(services.roles));
  await app.register(crudRoutes(services.sectors));
  await app.register(crudRoutes(services.structures));
  await app.register(crudRoutes(services.natures));
  await app.register(crudRoutes(services.covers));
  await app.register(crudRoutes(services.entities));
};
