import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, SimpleGrid, TextInput } from '@mantine/core';
import { MESSAGES, type ProfileInput, profileSchema, TITLES } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { showApiError } from '../../api/show-api-error.tsx';
import { type CurrentUser, storeUser } from '../../app/session.ts';
import { alertSuccess } from '../../components/notify.tsx';
import { updateProfile } from './profile-api.ts';

const TITLE = 'Mon profil';

interface ProfileModalProps {
  user: CurrentUser;
  opened: boolean;
  onClose: () => void;
}

/** "Mon profil" (spec §2.2): large, static backdrop, not closed by Escape (spec §9). */
export function ProfileModal({ user, opened, onClose }: ProfileModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={TITLE}
      size="lg"
      closeOnClickOutside={false}
      closeOnEscape={false}
      closeButtonProps={{ 'aria-label': 'Fermer' }}
    >
      {/* Mounted only while open, so each opening starts from the stored user. */}
      <ProfileForm user={user} onSaved={onClose} />
    </Modal>
  );
}

interface ProfileFormProps {
  user: CurrentUser;
  onSaved: () => void;
}

function ProfileForm({ user, onSaved }: ProfileFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm({
    resolver: zodResolver(profileSchema),
    mode: 'all',
    defaultValues: {
      lastname: user.lastname ?? '',
      firstname: user.firstname ?? '',
      email: user.email,
      phone: user.phone ?? '',
    },
  });

  const save = useMutation({
    mutationFn: (input: ProfileInput) => updateProfile(input),
    onSuccess: ({ data }) => {
      storeUser(data);
      alertSuccess(MESSAGES.profileUpdated, TITLES.profile);
      onSaved();
    },
    onError: (error) => showApiError(error, TITLE),
  });

  return (
    <form noValidate onSubmit={handleSubmit((values) => save.mutate(values))}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label="Nom" withAsterisk error={errors.lastname?.message} {...register('lastname')} />
        <TextInput label="Prénoms" withAsterisk error={errors.firstname?.message} {...register('firstname')} />
        <TextInput label="Email" type="email" withAsterisk error={errors.email?.message} {...register('email')} />
        <TextInput label="Téléphone" type="tel" inputMode="numeric" withAsterisk error={errors.phone?.message} {...register('phone')} />
      </SimpleGrid>
      <Group justify="flex-end" mt="lg">
        <Button type="submit" disabled={!isValid} loading={save.isPending}>
          Enregistrer
        </Button>
      </Group>
    </form>
  );
}
