import { SECTORS_ROUTES, type Sector, sectorSchema } from '@reformes/domain';
import type { ListConfig } from './list-page/list-config.ts';

/**
 * What a sector is saved with: "Liste des secteurs" (/admin/sectors) and the "Ajouter un secteur" of
 * "Liste des réformes" (spec §2.10) open the same form on the same resource.
 */
export const SECTOR_FORM = {
  routes: SECTORS_ROUTES,
  feature: 'sectors',
  errorTitle: 'Secteur',
  form: {
    schema: sectorSchema,
    fields: [{ name: 'libsecteur', label: 'Libellé' }],
    createTitle: 'Enregistrer un secteur',
    editTitle: 'Modifier un secteur',
  },
} satisfies Pick<ListConfig<Sector>, 'routes' | 'feature' | 'errorTitle' | 'form'>;
