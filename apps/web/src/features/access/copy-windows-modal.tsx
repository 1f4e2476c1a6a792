import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack, Text } from '@mantine/core';
import { ROLES_ROUTES, type RolesWindowsCopyInput, rolesWindowsCopySchema, TITLES } from '@reformes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { allRowsQuery, resourceKey } from '../../api/list-api.ts';
import { FormButtons } from '../../components/form-buttons.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { copyWindows, type Role } from './access-api.ts';
import { RoleSelect } from './role-select.tsx';

const TITLE = "Copier le menu d'un rôle";

interface CopyWindowsModalProps {
  opened: boolean;
  /** The role selected in the list, proposed as "Ancien rôle". */
  from?: Role;
  onClose: () => void;
}

/** The roles list's "Copier" (spec §5): "Ancien rôle" and "Rôle cible" required, then `POST roles-windows-copy`. */
export function CopyWindowsModal({ opened, from, onClose }: CopyWindowsModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={TITLE}>
      {/* Mounted only while open, so each opening starts from the selected role. */}
      <CopyWindowsForm from={from} onDone={onClose} />
    </Modal>
  );
}

function CopyWindowsForm({ from, onDone }: { from?: Role; onDone: () => void }) {
  const queryClient = useQueryClient();
  const roles = useQuery(allRowsQuery(ROLES_ROUTES));
  const {
    control,
    handleSubmit,
    watch,
    formState: { errors, isValid },
  } = useForm({
    resolver: zodResolver(rolesWindowsCopySchema),
    mode: 'all',
    defaultValues: { old_id: from ? String(from.id) : '', new_id: '' },
  });
  const oldId = String(watch('old_id') ?? '');

  const copy = useMutation({
    mutationFn: (input: RolesWindowsCopyInput) => copyWindows(input),
    onSuccess: async (response) => {
      notifySuccess(response.message, TITLES.roles);
      onDone();
      await queryClient.invalidateQueries({ queryKey: resourceKey(ROLES_ROUTES) });
    },
    meta: { errorTitle: TITLES.roles },
  });

  const all = roles.data ?? [];
  return (
    <form noValidate onSubmit={handleSubmit((values) => copy.mutate(values))}>
      <Stack>
        <Text size="sm">Le menu de l'ancien rôle remplace celui du rôle cible.</Text>
        <RoleSelect name="old_id" label="Ancien rôle" control={control} roles={all} error={errors.old_id?.message} />
        <RoleSelect
          name="new_id"
          label="Rôle cible"
          control={control}
          roles={all.filter((role) => String(role.id) !== oldId)}
          error={errors.new_id?.message}
        />
      </Stack>
      <FormButtons onCancel={onDone} submitLabel="Copier" saving={copy.isPending} canSubmit={isValid} />
    </form>
  );
}
