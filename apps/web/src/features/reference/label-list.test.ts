import { isValidElement } from 'react';
import { describe, expect, it } from 'vitest';
import { detailFieldsOf, searchValuesOf } from '../../components/list-page/list-config.ts';
import { coversList } from './covers.tsx';
import { entitiesList } from './entities.tsx';

const entity = { id: 4, is_active: false, libelle: 'Direction générale', created_at: '2025-01-02', updated_at: '2025-01-02' };

describe('a reference list of a label and a state', () => {
  it('shows "#", "Libellé" and "Statut", and names the row by its label', () => {
    expect(entitiesList.columns.map((column) => column.label)).toEqual(['#', 'Libellé', 'Statut']);
    expect(entitiesList.columns[0]?.render(entity, 11)).toBe(11);
    expect(entitiesList.rowLabel(entity)).toBe('Direction générale');
    expect(isValidElement(entitiesList.columns[2]?.render(entity, 1))).toBe(true);
  });

  it('edits the label alone, with the screen’s own titles and button', () => {
    expect(entitiesList.form.fields).toEqual([{ name: 'libelle', label: 'Libellé' }]);
    expect(entitiesList.form.submitLabel).toBe('Soumettre');
    expect(coversList.form.createTitle).toBe('Enregistrer une Couverture');
  });

  it('details and searches the label and state, not the place', () => {
    expect(detailFieldsOf(entitiesList).map((field) => field.label)).toEqual(['Libellé', 'Statut']);
    expect(searchValuesOf(entitiesList, entity)).toEqual(['Direction générale']);
  });
});
