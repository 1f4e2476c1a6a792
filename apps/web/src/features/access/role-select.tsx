import type { Control, FieldValues, Path } from 'react-hook-form';
import { SelectField } from '../../components/select-field.tsx';

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
    <SelectField
      control={control}
      name={name}
      label={label}
      withAsterisk
      searchable
      nothingFoundMessage="Aucun résultat trouvé"
      data={roles.map((role) => ({ value: String(role.id), label: role.name }))}
      error={error}
    />
  );
}
