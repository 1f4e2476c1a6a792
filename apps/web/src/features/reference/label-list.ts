import type { ListConfig, ListRow } from '../../components/list-page/list-config.ts';
import { STATUS_COLUMN } from '../../components/status-badge.tsx';

type LabelListConfig<Row extends ListRow> = Omit<ListConfig<Row>, 'columns' | 'rowLabel' | 'form'> & {
  /** The row's one text, its "Libellé": column, name of the row and form field. */
  field: keyof Row & string;
  /** A first "#" column: the row's place in the list. */
  numbered?: boolean;
  form: Omit<ListConfig<Row>['form'], 'fields'>;
};

/** A reference list of a label and a state (natures, couvertures, entités): "Libellé", "Statut", one form field. */
export function labelList<Row extends ListRow>({ field, numbered = false, form, ...config }: LabelListConfig<Row>): ListConfig<Row> {
  const label = (row: Row) => String(row[field]);
  const position = { label: '#', render: (_row: Row, place: number) => place, ofRow: false } as const;
  return {
    ...config,
    columns: [...(numbered ? [position] : []), { label: 'Libellé', render: label }, STATUS_COLUMN],
    rowLabel: label,
    form: { ...form, fields: [{ name: field, label: 'Libellé' }] },
  };
}
