import type { Action } from '@reformes/domain';
import type { ReactNode } from 'react';
import type { z } from 'zod';

/** What every listed row carries: an id and the active flag that Activer/Désactiver switch. */
export interface ListRow {
  id: number;
  is_active: boolean;
}

export interface ListColumn<Row> {
  label: string;
  /** `position` is the row's 1-based place in the whole list (the "#" column). */
  render: (row: Row, position: number) => ReactNode;
}

/** A select's choices: the whole list of another resource (`GET {resource}`). */
export interface OptionSource {
  resource: string;
  toOption: (row: Record<string, unknown>) => { value: string; label: string; isActive: boolean };
}

/** Choices read from another resource: `optionsOf<Sector>('sectors', (s) => ({ value: String(s.id), label: s.libsecteur }))`. */
export function optionsOf<Option extends object>(
  resource: string,
  toOption: (row: Option) => { value: string; label: string },
): OptionSource {
  return {
    resource,
    toOption: (row) => ({ ...toOption(row as Option), isActive: row.is_active !== false }),
  };
}

export type FormFieldKind = 'text' | 'email' | 'tel' | 'select' | 'multiselect' | 'checkbox';

export interface FormField<Row> {
  /** The API field name (spec §3), also the form field. */
  name: string;
  label: string;
  kind?: FormFieldKind;
  /** For `select` and `multiselect`. */
  options?: OptionSource;
  /** The value the edit form starts from; the row's own field by default. */
  initialValue?: (row: Row) => unknown;
}

export interface DetailField<Row> {
  label: string;
  value: (row: Row) => ReactNode;
}

/** An action of the bar that needs a selected row (users add "Réinitialiser le mot de passe"). */
export interface ExtraAction<Row> {
  label: string;
  /** The right (`{feature}.{action}`) the button needs. */
  action: Action;
  icon?: ReactNode;
  onClick: (row: Row) => void;
}

/** One list screen: everything that differs between "Liste des secteurs", "Liste des structures"... */
export interface ListConfig<Row extends ListRow> {
  /** API path (`sectors` gives `GET sectors`, `POST sectors-search`...), also the query key. */
  resource: string;
  /** Feature of the rights (`sectors.add`) that show or hide each button (spec §6). */
  feature: string;
  title: string;
  /** Title of the toasts and error alerts of saves and deletes (spec §8: "Couverture", "Gestion des utilisateurs"...). */
  errorTitle: string;
  /** Title of the error alert of Activer/Désactiver; spec §8 gives "Gestion des utilisateurs". */
  statusErrorTitle?: string;
  /** Title of the alert when the list cannot be loaded; `errorTitle` by default. */
  listErrorTitle?: string;
  columns: ListColumn<Row>[];
  /** The values the search box looks at (spec §3 "Local search filter"). */
  searchValues: (row: Row) => unknown[];
  /** How a row is named to assistive technologies (the label of its radio). */
  rowLabel: (row: Row) => string;
  form: {
    schema: z.ZodObject;
    fields: FormField<Row>[];
    createTitle: string;
    editTitle: string;
    /** "Enregistrer" by default; entities say "Soumettre" (spec §2.9). */
    submitLabel?: string;
  };
  details: {
    title?: string;
    fields: DetailField<Row>[];
  };
}
