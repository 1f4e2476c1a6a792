import { COVERS_ROUTES, type Cover, coverSchema } from '@reformes/domain';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { labelList } from './label-list.ts';

export const coversList = labelList<Cover>({
  routes: COVERS_ROUTES,
  feature: 'covers',
  title: 'Liste des couvertures',
  errorTitle: 'Couverture',
  field: 'lib_couvert',
  form: {
    schema: coverSchema,
    // Spec §2.9, capital letter included.
    createTitle: 'Enregistrer une Couverture',
    editTitle: 'Modifier une couverture',
  },
});

/** /admin/covers */
export function CoversPage() {
  return <ListPage config={coversList} />;
}
