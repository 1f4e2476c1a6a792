import { Select, SimpleGrid } from '@mantine/core';
import { AUDIT_ACTION_CODES, AUDIT_ACTIONS, AUDIT_MESSAGES, AUDIT_RESULTS, MESSAGES } from '@reformes/domain';
// The reform form's date input (typed jj/mm/aaaa or picked), as the follow-up screens use it too.
import { FrenchDateInput } from '../../components/french-date-input.tsx';
import type { AuditFilterValues } from './audit-api.ts';

const ALL = 'all';
const ACTION_OPTIONS = [
  { value: ALL, label: 'Toutes' },
  ...AUDIT_ACTION_CODES.map((code) => ({ value: code, label: AUDIT_ACTIONS[code] })).sort((a, b) => a.label.localeCompare(b.label, 'fr')),
];
const RESULT_OPTIONS = [{ value: ALL, label: 'Tous' }, ...Object.entries(AUDIT_RESULTS).map(([value, label]) => ({ value, label }))];

/** True unless the period ends before it starts (days as yyyy-mm-dd compare as strings). */
export const isPeriodInOrder = ({ from, to }: AuditFilterValues) => !from || !to || from <= to;

interface AuditFiltersBarProps {
  filters: AuditFilterValues;
  onChange: (filters: AuditFilterValues) => void;
}

/** Action, Résultat, Du, Au: what the journal and its export show. */
export function AuditFiltersBar({ filters, onChange }: AuditFiltersBarProps) {
  const select = (key: 'action' | 'result') => ({
    value: filters[key] || ALL,
    allowDeselect: false,
    onChange: (value: string | null) => onChange({ ...filters, [key]: !value || value === ALL ? '' : value }),
  });
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} role="group" aria-label="Filtres du journal">
      <Select label="Action" data={ACTION_OPTIONS} searchable nothingFoundMessage={MESSAGES.nothingFound} {...select('action')} />
      <Select label="Résultat" data={RESULT_OPTIONS} {...select('result')} />
      <FrenchDateInput label="Du" value={filters.from} onChange={(from) => onChange({ ...filters, from })} />
      <FrenchDateInput
        label="Au"
        value={filters.to}
        onChange={(to) => onChange({ ...filters, to })}
        error={isPeriodInOrder(filters) ? undefined : AUDIT_MESSAGES.periodOrder}
      />
    </SimpleGrid>
  );
}
