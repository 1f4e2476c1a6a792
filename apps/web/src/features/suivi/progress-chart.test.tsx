import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aSuivi } from '../../test/reforme-fixtures.ts';
import { renderWithProviders } from '../../test/render-app.tsx';
import { niceCeil, ProgressChart } from './progress-chart.tsx';

describe('progress chart', () => {
  it('tops the scale at a round number', () => {
    expect(niceCeil(4300)).toBe(5000);
    expect(niceCeil(100)).toBe(100);
    expect(niceCeil(101)).toBe(200);
    expect(niceCeil(0)).toBe(1);
  });

  it('is an image named by its title, whose text alternative gives the lines and every value', () => {
    renderWithProviders(
      <ProgressChart
        result={{
          libresult: 'Bénéficiaires',
          valeur_cible: '5000',
          valeurref: '1000',
          suivi_results: [
            aSuivi({ id: 1, taux_realisat: '20', valeur_realise: '1000', date: '2024-03-15' }),
            aSuivi({ id: 2, taux_realisat: '35', valeur_realise: '1800', date: '2025-06-15' }),
          ],
        }}
      />,
    );
    const chart = screen.getByRole('img', { name: /Évolution de la valeur réalisée : Bénéficiaires/ });
    expect(chart.textContent?.replace(/[\u00a0\u202f]/g, ' ')).toContain(
      'Valeur cible 5 000, valeur de référence 1 000. Valeurs réalisées : 15 mars 2024 : 1 000 ; 15 juin 2025 : 1 800.',
    );
    expect(chart.querySelectorAll('circle')).toHaveLength(2);
  });

  it('draws nothing without a record', () => {
    const { container } = renderWithProviders(
      <ProgressChart result={{ libresult: 'Vide', valeur_cible: '1', valeurref: '0', suivi_results: [] }} />,
    );
    expect(container.querySelector('svg[role="img"]')).toBeNull();
  });
});
