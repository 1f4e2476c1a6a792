import { Select } from '@mantine/core';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';

interface RoleSelectProps<Values extends FieldValues> {
  name: Path<Values>;
  label: string;
  control: Control<Values>;
  roles: { id: number; name: string }[];
  error?: string;
}

/** A required choice of role, by id (the copy forms of the roles list and of profils). */
export function RoleSelect<Values extends FieldValues>({ name, label, control, roles, error }: RoleSelectProps<Values>) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <Select
          label={label}
          withAsterisk
          searchable
          nothingFoundMessage="Aucun résultat trouvé"
          data={roles.map((role) => ({ value: String(role.id), label: role.name }))}
          value={field.value ? String(field.value) : null}
          onChange={(value) => field.onChange(value ?? '')}
          onBlur={field.onBlur}
          ref={field.ref}
          error={error}
        />
      )}
    />
  );
}
