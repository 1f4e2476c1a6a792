import { niceCeil, timeDomain, valueDomain } from '@reformes/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render-app.tsx';
import { ProgressChart } from './progress-chart.tsx';
import { chartPoints } from './progress-chart-data.ts';

const plain = (text: string | null | undefined) => text?.replace(/[\u00a0\u202f]/g, ' ');

const beneficiaires = {
  libresult: 'Bénéficiaires',
  valeur_cible: '5000',
  valeurref: '1000',
  // Out of order, as an API may send them: the chart and its table read them by date.
  suivi_results: [
    { taux_realisat: '35', valeur_realise: '1800.5', date: '2025-06-15' },
    { taux_realisat: '20', valeur_realise: '1000', date: '2024-03-15' },
  ],
};

describe('progress chart data', () => {
  it('tops the value axis at a round number above every line', () => {
    expect(niceCeil(4300)).toBe(5000);
    expect(niceCeil(100)).toBe(100);
    expect(niceCeil(101)).toBe(200);
    expect(niceCeil(0)).toBe(1);
    expect(valueDomain(chartPoints(beneficiaires))).toEqual([0, 5000]);
    expect(valueDomain(chartPoints({ ...beneficiaires, valeur_cible: '', valeurref: '' }))).toEqual([0, 2000]);
  });

  it('places the measures by date, each with the target and reference as numbers', () => {
    const points = chartPoints(beneficiaires);
    expect(points.map((point) => new Date(point.time).getFullYear())).toEqual([2024, 2025]);
    expect(points[0]).toMatchObject({ realise: 1000, cible: 5000, reference: 1000 });
    expect(points[1].realise).toBe(1800.5);
    expect(timeDomain(points)).toEqual([points[0].time, points[1].time]);
  });

  it('widens a single date into two months, so that the point stands in the middle', () => {
    const [point] = chartPoints({ ...beneficiaires, suivi_results: [beneficiaires.suivi_results[0]] });
    const [from, to] = timeDomain([point]);
    expect(point.time - from).toBe(to - point.time);
    expect(to - from).toBe(60 * 86_400_000);
  });
});

describe('progress chart', () => {
  it('is an image named by its caption and described by every value in French, in date order', () => {
    renderWithProviders(<ProgressChart result={beneficiaires} />);
    const figure = screen.getByRole('figure', { name: 'Évolution de la valeur réalisée : Bénéficiaires' });
    const chart = within(figure).getByRole('img', { name: 'Évolution de la valeur réalisée : Bénéficiaires' });
    const description = document.getElementById(chart.getAttribute('aria-describedby') ?? '');
    expect(plain(description?.textContent)).toBe(
      'Valeur cible 5 000, valeur de référence 1 000. Valeurs réalisées : 15 mars 2024 : 1 000 ; 15 juin 2025 : 1 800,5.',
    );
  });

  it('shows the same figures as a table on demand, from the keyboard too', async () => {
    const user = userEvent.setup();
    renderWithProviders(<ProgressChart result={beneficiaires} />);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    const toggle = screen.getByRole('button', { name: 'Afficher les données du graphique' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    toggle.focus();
    await user.keyboard('{Enter}');

    const table = screen.getByRole('table', {
      name: /Évolution de la valeur réalisée : Bénéficiaires \(valeur cible 5.000, valeur de référence 1.000\)/,
    });
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => plain(row.textContent));
    expect(rows).toEqual(['DateValeur réaliséeTaux de réalisation', '15 mars 20241 00020 %', '15 juin 20251 800,535 %']);
    expect(screen.getByRole('button', { name: 'Masquer les données du graphique' })).toHaveAttribute('aria-expanded', 'true');
  });

  it('draws nothing without a measure', () => {
    renderWithProviders(<ProgressChart result={{ ...beneficiaires, suivi_results: [] }} />);
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
