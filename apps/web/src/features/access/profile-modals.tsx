import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, MultiSelect, Stack, Text } from '@mantine/core';
import { profileCopySchema, profileGrantSchema } from '@reformes/domain';
import { Controller, useForm } from 'react-hook-form';
import { FormButtons } from '../../components/form-buttons.tsx';
import type { Permission, RoleProfile } from './access-api.ts';
import { rightLabel } from './access-api.ts';
import { RoleSelect } from './role-select.tsx';

interface CopyRightsModalProps {
  /** The source role; the modal is closed without one. */
  role: RoleProfile | undefined;
  roles: RoleProfile[];
  saving: boolean;
  onSubmit: (input: { id: number; role_id: number }) => void;
  onClose: () => void;
}

/** "Copier vers": the rights of the role are added to the target role (required). */
export function CopyRightsModal({ role, roles, saving, onSubmit, onClose }: CopyRightsModalProps) {
  return (
    <Modal opened={role !== undefined} title={role ? `Copier les droits du rôle ${role.name}` : ''} onClose={onClose}>
      {role && (
        <CopyRightsForm
          role={role}
          targets={roles.filter((other) => other.id !== role.id)}
          saving={saving}
          onSubmit={onSubmit}
          onCancel={onClose}
        />
      )}
    </Modal>
  );
}

interface CopyRightsFormProps {
  role: RoleProfile;
  targets: RoleProfile[];
  saving: boolean;
  onSubmit: (input: { id: number; role_id: number }) => void;
  onCancel: () => void;
}

function CopyRightsForm({ role, targets, saving, onSubmit, onCancel }: CopyRightsFormProps) {
  const {
    control,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm({ resolver: zodResolver(profileCopySchema), mode: 'all', defaultValues: { id: role.id, role_id: '' } });
  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack>
        <Text size="sm">Les droits de ce rôle sont ajoutés à ceux du rôle cible.</Text>
        <RoleSelect name="role_id" label="Rôle cible" control={control} roles={targets} error={errors.role_id?.message} />
      </Stack>
      <FormButtons submitLabel="Copier" canSubmit={isValid} saving={saving} onCancel={onCancel} />
    </form>
  );
}

interface GrantRightsModalProps {
  /** The role that gets the rights; the modal is closed without one. */
  role: RoleProfile | undefined;
  permissions: Permission[];
  saving: boolean;
  onSubmit: (input: { id: number; permissions: number[] }) => void;
  onClose: () => void;
}

/** "Ajouter un droit": several permissions at once, among those the role does not hold yet. */
export function GrantRightsModal({ role, permissions, saving, onSubmit, onClose }: GrantRightsModalProps) {
  return (
    <Modal opened={role !== undefined} title={role ? `Ajouter un droit au rôle ${role.name}` : ''} onClose={onClose}>
      {role && <GrantRightsForm role={role} permissions={permissions} saving={saving} onSubmit={onSubmit} onCancel={onClose} />}
    </Modal>
  );
}

interface GrantRightsFormProps {
  role: RoleProfile;
  permissions: Permission[];
  saving: boolean;
  onSubmit: (input: { id: number; permissions: number[] }) => void;
  onCancel: () => void;
}

/** The choices, grouped by feature: active permissions the role does not hold. */
function grantableGroups(role: RoleProfile, permissions: Permission[]) {
  const held = new Set(role.permissions.map((right) => right.permission.id));
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const permission of permissions) {
    if (held.has(permission.id) || !permission.is_active) continue;
    const items = groups.get(permission.feature_tag) ?? [];
    items.push({ value: String(permission.id), label: rightLabel(permission) });
    groups.set(permission.feature_tag, items);
  }
  return [...groups.entries()].sort(([a], [b]) => a.localeCompare(b, 'fr')).map(([group, items]) => ({ group, items }));
}

function GrantRightsForm({ role, permissions, saving, onSubmit, onCancel }: GrantRightsFormProps) {
  const {
    control,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm({ resolver: zodResolver(profileGrantSchema), mode: 'all', defaultValues: { id: role.id, permissions: [] as string[] } });
  const groups = grantableGroups(role, permissions);
  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <Controller
        name="permissions"
        control={control}
        render={({ field }) => (
          <MultiSelect
            label="Droits"
            description="Un ou plusieurs droits que ce rôle n'a pas encore."
            placeholder={groups.length === 0 ? 'Ce rôle a déjà tous les droits' : 'Choisir...'}
            withAsterisk
            searchable
            clearable
            hidePickedOptions
            nothingFoundMessage="Aucun résultat trouvé"
            data={groups}
            value={Array.isArray(field.value) ? field.value.map(String) : []}
            onChange={field.onChange}
            onBlur={field.onBlur}
            ref={field.ref}
            error={errors.permissions?.message}
            maxDropdownHeight={320}
            comboboxProps={{ withinPortal: true }}
            data-autofocus
          />
        )}
      />
      <FormButtons submitLabel="Ajouter" canSubmit={isValid} saving={saving} onCancel={onCancel} />
    </form>
  );
}
