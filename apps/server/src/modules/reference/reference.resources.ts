import {
  coverSchema,
  coverShape,
  entitySchema,
  entityShape,
  natureSchema,
  natureShape,
  sectorSchema,
  sectorShape,
  structureSchema,
  structureShape,
} from '@reformes/domain';
import type { Db } from '../../db/client.ts';
import { covers, entities, natures, sectors, structures } from '../../db/schema/index.ts';
import { createCrudService } from './crud-service.ts';
import { structureView } from './reference.service.ts';
import { rolesResource } from './roles.resource.ts';

/** The reference lists of spec §2.9, each a configuration of the one CRUD service (and of its routes, crud-routes.ts). */
export function createReferenceServices(db: Db) {
  return {
    roles: createCrudService(db, rolesResource),
    sectors: createCrudService(db, {
      path: 'sectors',
      feature: 'sectors',
      tag: 'Secteurs',
      table: sectors,
      schema: sectorSchema,
      row: sectorShape,
      labelColumn: sectors.libsecteur,
      searchColumns: [sectors.libsecteur],
      inUseMessage: 'Ce secteur est utilisé par des structures : supprimez-les ou changez leur secteur avant de le supprimer.',
    }),
    structures: createCrudService(db, {
      path: 'structures',
      feature: 'structures',
      tag: 'Structures',
      table: structures,
      schema: structureSchema,
      row: structureShape,
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
      path: 'natures',
      feature: 'natures',
      tag: 'Natures',
      table: natures,
      schema: natureSchema,
      row: natureShape,
      labelColumn: natures.libnature,
      searchColumns: [natures.libnature],
      inUseMessage: 'Cette nature est utilisée par des réformes : elle ne peut pas être supprimée.',
    }),
    covers: createCrudService(db, {
      path: 'covers',
      feature: 'covers',
      tag: 'Couvertures',
      table: covers,
      schema: coverSchema,
      row: coverShape,
      labelColumn: covers.lib_couvert,
      searchColumns: [covers.lib_couvert],
      inUseMessage: 'Cette couverture est utilisée par des réformes : elle ne peut pas être supprimée.',
    }),
    entities: createCrudService(db, {
      path: 'entities',
      feature: 'entities',
      tag: 'Entités administratives',
      table: entities,
      schema: entitySchema,
      row: entityShape,
      labelColumn: entities.libelle,
      searchColumns: [entities.libelle],
      inUseMessage: 'Cette entité est utilisée : elle ne peut pas être supprimée.',
    }),
  };
}

export type ReferenceServices = ReturnType<typeof createReferenceServices>;
