import type { SelectProps } from '@mantine/core';
import { type Control, Controller, useWatch } from 'react-hook-form';
import type { ListSource } from '../../api/list-api.ts';
import { FrenchDateInput, parseFrenchDate } from '../../components/french-date-input.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { type LookupRow, useLookup } from '../../components/use-lookup.ts';
import type { FieldName, ReformeFormValues } from './reforme-form-values.ts';

interface ControlledFieldProps {
  control: Control<ReformeFormValues>;
  name: FieldName;
  label: string;
  error?: string;
}

export function DateField({ control, name, label, error }: ControlledFieldProps) {
  return (
    <Controller
      name={name}
      control={control}
      // The period is made of both dates: its message follows them.
      rules={{ deps: ['periodexe'] }}
      render={({ field }) => (
        <FrenchDateInput
          label={label}
          withAsterisk
          error={error}
          value={field.value}
          onChange={field.onChange}
          onBlur={(event) => {
            // A whole date typed without leaving a valid one behind still counts.
            const typed = parseFrenchDate(event.currentTarget.value);
            if (typed && typed !== field.value) field.onChange(typed);
            field.onBlur();
          }}
          ref={field.ref}
          name={field.name}
        />
      )}
    />
  );
}

/** A choice among `data`; a required one can be neither cleared nor deselected. */
export function ChoiceField({
  required,
  ...select
}: ControlledFieldProps & Omit<SelectProps, 'name' | 'value' | 'onChange' | 'onBlur'> & { required?: boolean }) {
  return <SelectField withAsterisk={required} clearable={!required} placeholder="Choisir..." allowDeselect={!required} {...select} />;
}

/** A select whose choices are a reference list (`GET natures`...); a blocked entry stays only if chosen. */
export function LookupField<Row extends LookupRow>({
  source,
  optionLabel,
  ...field
}: ControlledFieldProps & { source: ListSource<Row>; optionLabel: (row: Row) => string }) {
  const chosen = useWatch({ control: field.control, name: field.name });
  const data = useLookup(source, optionLabel, (row) => row.is_active !== false || String(row.id) === chosen);
  return <ChoiceField {...field} data={data} required allowDeselect searchable nothingFoundMessage="Aucun résultat trouvé" />;
}
