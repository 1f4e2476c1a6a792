import '@mantine/dates/styles.layer.css';
import 'dayjs/locale/fr';
import { DateInput, type DateInputProps } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';

/**
 * "jj/mm/aaaa" -> "aaaa-mm-jj", or null while the text is not a whole, real date:
 * `parseFrenchDate('15/01/2026')` is "2026-01-15", `parseFrenchDate('31/02/2026')` is null.
 */
export function parseFrenchDate(text: string): string | null {
  const match = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(text);
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

type FrenchDateInputProps = Omit<DateInputProps, 'value' | 'onChange'> & {
  /** ISO yyyy-mm-dd, '' when empty. */
  value: string;
  onChange: (value: string) => void;
};

/** A date typed as jj/mm/aaaa or picked from a French calendar (week starts Monday, spec §1). */
export function FrenchDateInput({ value, onChange, ...props }: FrenchDateInputProps) {
  return (
    <DateInput
      {...props}
      value={value || null}
      onChange={(next) => onChange(next ?? '')}
      valueFormat="DD/MM/YYYY"
      dateParser={parseFrenchDate}
      locale="fr"
      firstDayOfWeek={1}
      placeholder="jj/mm/aaaa"
      allowDeselect
      rightSection={<IconCalendar size={16} aria-hidden />}
      rightSectionPointerEvents="none"
      popoverProps={{ withinPortal: true }}
    />
  );
}
