import { NATURES_ROUTES } from '@reformes/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { detailFieldsOf, type ListConfig, searchValuesOf } from './list-config.ts';

interface Nature {
  id: number;
  is_active: boolean;
  libnature: string;
}

const config: ListConfig<Nature> = {
  routes: NATURES_ROUTES,
  feature: 'natures',
  title: 'Liste des natures',
  errorTitle: 'Nature',
  columns: [
    { label: '#', render: (_row, position) => position, ofRow: false },
    { label: 'Libellé', render: (row) => row.libnature },
    { label: 'Statut', render: (row) => (row.is_active ? 'Actif' : 'Bloqué') },
  ],
  rowLabel: (row) => row.libnature,
  form: { schema: z.object({}), fields: [], createTitle: '', editTitle: '' },
};
const row: Nature = { id: 3, is_active: true, libnature: 'Budgétaire' };

describe('a list configuration without details or search values', () => {
  it('shows one detail per column of the row, as the list shows it', () => {
    const fields = detailFieldsOf(config);
    expect(fields.map((field) => [field.label, field.value(row)])).toEqual([
      ['Libellé', 'Budgétaire'],
      ['Statut', 'Actif'],
    ]);
  });

  it("searches the columns' texts, not the row's place", () => {
    expect(searchValuesOf(config, row)).toEqual(['Budgétaire', 'Actif']);
  });

  it('keeps the details and search values it is given', () => {
    const given = {
      ...config,
      searchValues: (nature: Nature) => [nature.id],
      details: { fields: [{ label: 'Id', value: (nature: Nature) => nature.id }] },
    };
    expect(searchValuesOf(given, row)).toEqual([3]);
    expect(detailFieldsOf(given).map((field) => field.label)).toEqual(['Id']);
  });
});
