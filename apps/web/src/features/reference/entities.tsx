import { type AdministrativeEntity, ENTITIES_ROUTES, entitySchema } from '@reformes/domain';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { labelList } from './label-list.ts';

export const entitiesList = labelList<AdministrativeEntity>({
  routes: ENTITIES_ROUTES,
  feature: 'entities',
  title: 'Liste des entités administratives',
  errorTitle: 'Entité administrative',
  field: 'libelle',
  numbered: true,
  form: {
    schema: entitySchema,
    createTitle: 'Enregistrer une entité',
    editTitle: 'Modifier une entité',
    submitLabel: 'Soumettre',
  },
});

/** /admin/entities */
export function EntitiesPage() {
  return <ListPage config={entitiesList} />;
}
