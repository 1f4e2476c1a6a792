import { SUIVI_MESSAGES } from '@reformes/domain';
import { ServerSelect } from '../../components/server-select/server-select.tsx';
import { fetchSuiviReformesPage, SUIVI_REFORMES_KEY, suiviReformeOption } from './suivi-api.ts';

interface SuiviReformePickerProps {
  label: string;
  /** The chosen reform's id as text, or null. */
  value: string | null;
  /** Its label once loaded: the choice may be on no page the picker has read. */
  selectedLabel?: string;
  onChange: (value: string | null) => void;
  maw?: number;
}

/** The reform picker of both follow-up screens: the reforms in scope, searched and paged by the server. */
export function SuiviReformePicker({ label, value, selectedLabel, onChange, maw }: SuiviReformePickerProps) {
  return (
    <ServerSelect
      label={label}
      placeholder="Choisir une réforme"
      emptyPlaceholder={SUIVI_MESSAGES.noReformes}
      queryKey={SUIVI_REFORMES_KEY}
      fetchPage={fetchSuiviReformesPage}
      toOption={suiviReformeOption}
      value={value}
      selectedLabel={selectedLabel}
      onChange={(chosen) => onChange(chosen)}
      clearable
      maw={maw}
    />
  );
}
