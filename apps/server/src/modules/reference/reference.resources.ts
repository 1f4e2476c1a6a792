import { COVERS_ROUTES, ENTITIES_ROUTES, NATURES_ROUTES, SECTORS_ROUTES, STRUCTURES_ROUTES } from '@reformes/domain';
import type { Db } from '../../db/client.ts';
import { covers, entities, natures, sectors, structures } from '../../db/schema/index.ts';
import { createCrudService } from './crud-service.ts';
import { structureView } from './reference.service.ts';
import { rolesResource } from './roles.resource.ts';

/** The reference lists of spec §2.9, each a configuration of the one CRUD service (its routes: packages/domain/src/routes/reference.ts, registered by crud-routes.ts). */
export function createReferenceServices(db: Db) {
  return {
    roles: createCrudService(db, rolesResource),
    sectors: createCrudService(db, {
      routes: SECTORS_ROUTES,
      table: sectors,
      labelColumn: sectors.libsecteur,
      searchColumns: [sectors.libsecteur],
      inUseMessage: 'Ce secteur est utilisé par des structures : supprimez-les ou changez leur secteur avant de le supprimer.',
    }),
    structures: createCrudService(db, {
      routes: STRUCTURES_ROUTES,
      table: structures,
      labelColumn: structures.designation,
      searchColumns: [
        structures.designation,
        structures.sigl,
        structures.email,
        structures.telephone,
        structures.adresse_struct,
        sectors.libsecteur,
      ],
      inUseMessage: 'Cette structure a des utilisateurs ou des réformes : elle ne peut pas être supprimée.',
      select: structureView,
    }),
    natures: createCrudService(db, {
      routes: NATURES_ROUTES,
      table: natures,
      labelColumn: natures.libnature,
      searchColumns: [natures.libnature],
      inUseMessage: 'Cette nature est utilisée par des réformes : elle ne peut pas être supprimée.',
    }),
    covers: createCrudService(db, {
      routes: COVERS_ROUTES,
      table: covers,
      labelColumn: covers.lib_couvert,
      searchColumns: [covers.lib_couvert],
      inUseMessage: 'Cette couverture est utilisée par des réformes : elle ne peut pas être supprimée.',
    }),
    entities: createCrudService(db, {
      routes: ENTITIES_ROUTES,
      table: entities,
      labelColumn: entities.libelle,
      searchColumns: [entities.libelle],
      inUseMessage: 'Cette entité est utilisée : elle ne peut pas être supprimée.',
    }),
  };
}

export type ReferenceServices = ReturnType<typeof createReferenceServices>;
