import type { Action, FeatureName } from '@reformes/domain';
import type { ReactNode } from 'react';
import type { z } from 'zod';
import type { ListRoutes, ListSource } from '../../api/list-api.ts';
import type { FetchPage, ServerOption } from '../server-select/server-page.ts';

/** What every listed row carries: an id and the active flag that Activer/Désactiver switch. */
export interface ListRow {
  id: number;
  is_active: boolean;
}

export interface ListColumn<Row> {
  label: string;
  /** `position` is the row's 1-based place in the whole list (the "#" column). */
  render: (row: Row, position: number) => ReactNode;
  /** False for a column that says nothing of the row itself (the "#"): left out of the default details and search. */
  ofRow?: false;
}

/** A select's choices: the whole list of another resource (`GET {resource}`). */
export interface OptionSource {
  source: ListSource<Record<string, unknown>>;
  toOption: (row: Record<string, unknown>) => { value: string; label: string; isActive: boolean };
}

/** Choices read from another resource: `optionsOf(SECTORS_ROUTES, (s) => ({ value: String(s.id), label: s.libsecteur }))`. */
export function optionsOf<Option extends Record<string, unknown>>(
  source: ListSource<Option>,
  toOption: (row: Option) => { value: string; label: string },
): OptionSource {
  return {
    source,
    toOption: (row) => ({ ...toOption(row as Option), isActive: row.is_active !== false }),
  };
}

/** A select's choices searched and paged on the server, for lists too long to load whole (reforms). */
export interface ServerOptionSource<Row> {
  /** Start of the query key of the choices. */
  queryKey: readonly unknown[];
  fetchPage: FetchPage<unknown>;
  toOption: (item: unknown) => ServerOption;
  /** The label of the edited row's current choice, which may be on no loaded page. */
  selectedLabel: (row: Row) => string | undefined;
}

/** `serverOptionsOf({queryKey: ['reformes'], fetchPage, toOption: (r) => ({...}), selectedLabel: (row) => row.reforme?.libref})`. */
export function serverOptionsOf<Item, Row>(source: {
  queryKey: readonly unknown[];
  fetchPage: FetchPage<Item>;
  toOption: (item: Item) => ServerOption;
  selectedLabel: (row: Row) => string | undefined;
}): ServerOptionSource<Row> {
  return source as ServerOptionSource<Row>;
}

export type FormFieldKind = 'text' | 'email' | 'tel' | 'select' | 'server-select' | 'multiselect' | 'checkbox' | 'checkboxgroup';

/** A fixed choice of a `checkboxgroup` (the actions of a permission). */
export interface FieldChoice {
  value: string;
  label: string;
}

export interface FormField<Row> {
  /** The API field name (spec §3), also the form field. */
  name: string;
  label: string;
  kind?: FormFieldKind;
  /** For `select` and `multiselect`. */
  options?: OptionSource;
  /** For `server-select`. */
  server?: ServerOptionSource<Row>;
  /** For `checkboxgroup`: one checkbox each, the value is the list of those checked. */
  choices?: FieldChoice[];
  /** The value the edit form starts from; the row's own field by default. */
  initialValue?: (row: Row) => unknown;
}

export interface DetailField<Row> {
  label: string;
  value: (row: Row) => ReactNode;
}

interface ExtraActionBase {
  label: string;
  /** The right (`{feature}.{action}`) the button needs. */
  action: Action;
  icon?: ReactNode;
}

/**
 * An action of the bar after the standard ones (users add "Réinitialiser le mot de passe").
 * It needs a selected row, unless `needsSelection` is false: then it gets the selection, if any
 * (the roles list's "Copier" picks both roles in its own form).
 */
export type ExtraAction<Row> =
  | (ExtraActionBase & { needsSelection?: true; onClick: (row: Row) => void })
  | (ExtraActionBase & { needsSelection: false; onClick: (row: Row | undefined) => void });

/** One list screen: everything that differs between "Liste des secteurs", "Liste des structures"... */
export interface ListConfig<Row extends ListRow> {
  /** The resource's routes in the domain's table (`SECTORS_ROUTES`: `GET sectors`, `POST sectors-search`...); its path is the query key. */
  routes: ListRoutes<Row>;
  /** Feature of the rights (`sectors.add`) that show or hide each button (spec §6). */
  feature: FeatureName;
  title: string;
  /** Title of the toasts and error alerts of saves and deletes (spec §8: "Couverture", "Gestion des utilisateurs"...). */
  errorTitle: string;
  /** Title of the error alert of Activer/Désactiver; spec §8 gives "Gestion des utilisateurs". */
  statusErrorTitle?: string;
  /** Title of the alert when the list cannot be loaded; `errorTitle` by default. */
  listErrorTitle?: string;
  /**
   * The server sends the whole list at once (`GET permissions` has no pages): it is then searched
   * and paged here, 10 rows at a time, and never searched remotely.
   */
  wholeList?: boolean;
  /** Standard buttons this screen never offers, whatever the rights (spec §6: the roles list has no "Consulter"). */
  hiddenActions?: Action[];
  columns: ListColumn<Row>[];
  /** The values the search box looks at (spec §3 "Local search filter"); the columns' texts by default. */
  searchValues?: (row: Row) => unknown[];
  /** How a row is named to assistive technologies (the label of its radio). */
  rowLabel: (row: Row) => string;
  form: {
    schema: z.ZodObject;
    fields: FormField<Row>[];
    /** The edit form's own rules when they differ from creation's (a permission is edited one action at a time). */
    editSchema?: z.ZodObject;
    createTitle: string;
    editTitle: string;
    /** "Enregistrer" by default; entities say "Soumettre" (spec §2.9). */
    submitLabel?: string;
  };
  /** "Consulter": its title ("Détails des informations" by default) and fields (one per column by default). */
  details?: {
    title?: string;
    fields?: DetailField<Row>[];
  };
}

const columnsOfRow = <Row extends ListRow>(config: ListConfig<Row>) => config.columns.filter((column) => column.ofRow !== false);

/** The fields "Consulter" shows: the configured ones, else one per column, as the list shows it. */
export function detailFieldsOf<Row extends ListRow>(config: ListConfig<Row>): DetailField<Row>[] {
  return config.details?.fields ?? columnsOfRow(config).map((column) => ({ label: column.label, value: (row) => column.render(row, 0) }));
}

/** The values the search box looks at: the configured ones, else the columns' texts (a badge is not searched). */
export function searchValuesOf<Row extends ListRow>(config: ListConfig<Row>, row: Row): unknown[] {
  if (config.searchValues) return config.searchValues(row);
  return columnsOfRow(config)
    .map((column) => column.render(row, 0))
    .filter((value) => typeof value === 'string');
}
