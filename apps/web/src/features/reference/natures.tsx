import { NATURES_ROUTES, type Nature, natureSchema } from '@reformes/domain';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { labelList } from './label-list.ts';

export const naturesList = labelList<Nature>({
  routes: NATURES_ROUTES,
  feature: 'natures',
  title: 'Liste des natures',
  errorTitle: 'Nature',
  field: 'libnature',
  form: {
    schema: natureSchema,
    createTitle: 'Enregistrer une nature',
    editTitle: 'Modifier une nature',
  },
});

/** /admin/natures */
export function NaturesPage() {
  return <ListPage config={naturesList} />;
}
