import { dayMonthYear, REFORME_MESSAGES, WORKFLOW_MESSAGES } from '@reformes/domain';
import { COLUMNS } from './reforme-columns.tsx';
import { myReformesPageQuery, reformesByRolePageQuery, reformesPageQuery } from './reformes-api.ts';
import { type ReformesListConfig, ReformesListView } from './reformes-list-view.tsx';

/** "Liste des réformes" (/admin/list-reformes): filters, and "Ajouter un secteur" for those who may (spec §2.10). */
const LIST: ReformesListConfig = {
  title: REFORME_MESSAGES.listTitle,
  screen: 'list',
  pageQuery: reformesPageQuery,
  columns: [COLUMNS.libref, COLUMNS.type, COLUMNS.periode, COLUMNS.dateDebut, COLUMNS.dateFin, COLUMNS.etat, COLUMNS.publiee],
  searchBy: 'filters',
  toolbar: { advancedSearch: true, addSector: true, import: true },
};

/** The reform search screen (/admin/search-reformes): the wide table of spec §5. */
const SEARCH: ReformesListConfig = {
  title: REFORME_MESSAGES.searchTitle,
  screen: 'search',
  pageQuery: reformesPageQuery,
  columns: [
    COLUMNS.libref,
    COLUMNS.type,
    COLUMNS.objectifGlobal,
    COLUMNS.population,
    COLUMNS.structuresImpliquees,
    COLUMNS.periodeExecution,
    COLUMNS.etatMo,
    COLUMNS.montantPrevu,
    COLUMNS.pdf,
  ],
  searchBy: 'filters',
  minWidth: 1100,
};

/** "Liste de mes enregistrements" (/admin/mylist-reformes): the reforms the user created. */
const MY_RECORDS: ReformesListConfig = {
  title: REFORME_MESSAGES.myListTitle,
  screen: 'myList',
  pageQuery: myReformesPageQuery,
  // Spec §9: my records show day-month-year dates, with the time of registration.
  columns: [
    COLUMNS.libref,
    COLUMNS.periode,
    { label: 'Date début', render: (row) => dayMonthYear(row.date_debut) },
    { label: 'Date fin', render: (row) => dayMonthYear(row.date_fin) },
    COLUMNS.etat,
    COLUMNS.statut,
    COLUMNS.dateEnreg,
  ],
  searchBy: 'search',
  toolbar: { advancedSearch: true },
};

/**
 * "A transmettre" / "A valider" / "A publier" (/admin/treatment-reformes): the reforms waiting at the user's
 * stage, with the workflow's buttons; no search screen, its reforms are the ones waiting here.
 */
const TREATMENT: ReformesListConfig = {
  title: WORKFLOW_MESSAGES.treatmentTitle,
  screen: 'treatment',
  pageQuery: reformesByRolePageQuery,
  columns: [COLUMNS.libref, COLUMNS.type, COLUMNS.periode, COLUMNS.dateDebut, COLUMNS.dateFin],
  searchBy: 'search',
  toolbar: { advancedSearch: false },
};

export const ReformesListPage = () => <ReformesListView config={LIST} />;
export const SearchReformesPage = () => <ReformesListView config={SEARCH} />;
export const MyReformesPage = () => <ReformesListView config={MY_RECORDS} />;
export const TreatmentPage = () => <ReformesListView config={TREATMENT} />;
