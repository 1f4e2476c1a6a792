import type { TimelineLine } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { type FakeCall, fakeApi, pagedAnswer } from '../../test/fake-api.ts';
import { renderWithProviders } from '../../test/render-app.tsx';
import { ReformeTimeline } from './reforme-timeline.tsx';

const line = (key: string, overrides: Partial<TimelineLine> = {}): TimelineLine => ({
  key,
  at: '2026-11-20T10:15:00.000Z',
  kind: 'reforme',
  action: 'update',
  entity_id: 7,
  field: 'libref',
  field_label: 'Libellé de la réforme',
  before: 'Guichet unique',
  after: 'Guichet unique numérique',
  instruction: null,
  actor: { name: 'Awa Dubois', role: 'saisie', structure: 'MS' },
  ...overrides,
});

describe('the full history of a reform (issue 32)', () => {
  it('shows each change with its field, values before and after and its author, and filters by kind on the server', async () => {
    const api = fakeApi({
      'GET reformes/7/history': (call: FakeCall) =>
        call.query.get('kind') === 'objectif'
          ? {
              body: pagedAnswer(
                [
                  line('c9', {
                    kind: 'objectif',
                    action: 'create',
                    field: null,
                    field_label: null,
                    before: null,
                    after: 'Réduire les délais',
                  }),
                ],
                1,
                10,
              ),
            }
          : {
              body: pagedAnswer(
                [
                  line('c8'),
                  line('w2', {
                    kind: 'workflow',
                    action: 'transmission',
                    field: 'stage',
                    field_label: 'Étape',
                    before: 'Saisie',
                    after: 'Validation',
                    actor: null,
                  }),
                ],
                1,
                10,
              ),
            },
    });
    renderWithProviders(<ReformeTimeline reformeId={7} />);
    const table = await screen.findByRole('table', { name: 'Historique de la réforme' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('Libellé de la réforme');
    expect(first).toHaveTextContent('Guichet unique numérique');
    expect(first).toHaveTextContent('Awa Dubois');
    expect(first).toHaveTextContent('saisie · MS');
    expect(second).toHaveTextContent('Transmission');
    expect(second).toHaveTextContent('Système');

    await userEvent.click(screen.getAllByLabelText('Type de modification')[0]);
    await userEvent.click(await screen.findByRole('option', { name: 'Objectif' }));
    await waitFor(() => expect(within(table).getByText('Réduire les délais')).toBeInTheDocument());
    expect(api.calls.at(-1)?.query.get('kind')).toBe('objectif');
    expect(api.calls.at(-1)?.query.get('page')).toBe('1');
  });

  it('says so when nothing was recorded', async () => {
    fakeApi({ 'GET reformes/7/history': { body: pagedAnswer([], 1, 10) } });
    renderWithProviders(<ReformeTimeline reformeId={7} />);
    expect(await screen.findByText('Aucune modification enregistrée pour cette réforme.')).toBeInTheDocument();
  });
});
