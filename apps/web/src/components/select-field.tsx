import { Select, type SelectProps } from '@mantine/core';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';

type SelectFieldProps<Values extends FieldValues> = Omit<SelectProps, 'value' | 'onChange' | 'onBlur' | 'name'> & {
  control: Control<Values>;
  name: Path<Values>;
};

/** A Mantine Select bound to a react-hook-form field that holds the chosen value as text ('' when none). */
export function SelectField<Values extends FieldValues>({ control, name, ...select }: SelectFieldProps<Values>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <Select
          {...select}
          value={field.value ? String(field.value) : null}
          onChange={(value) => field.onChange(value ?? '')}
          onBlur={field.onBlur}
          ref={field.ref}
        />
      )}
    />
  );
}
