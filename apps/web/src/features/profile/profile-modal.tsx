import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Modal, SimpleGrid, TextInput } from '@mantine/core';
import {
  isEmailChange,
  MESSAGES,
  profileSchema,
  requireCurrentPasswordOnEmailChange,
  TITLES,
  textLimitOf,
  userUpdateSchema,
} from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { showFieldErrors } from '../../api/field-errors.ts';
import { EmailField } from '../../components/credential-fields.tsx';
import { CurrentPasswordField } from '../../components/current-password-field.tsx';
import { alertSuccess } from '../../components/notify.tsx';
import { type CurrentUser, storeUser } from '../../session/session.ts';
import { updateProfile } from './profile-api.ts';

const TITLE = 'Mon profil';

/** The spec's four fields, and the current password that a new email needs (issue 14). */
const profileFormSchema = profileSchema.extend({ current_password: userUpdateSchema.shape.current_password });
type ProfileFormInput = z.infer<typeof profileFormSchema>;

interface ProfileModalProps {
  user: CurrentUser;
  opened: boolean;
  onClose: () => void;
}

/** "Mon profil" (spec §2.2): large, static backdrop, not closed by Escape (spec §9). */
export function ProfileModal({ user, opened, onClose }: ProfileModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={TITLE}>
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
    setError,
    watch,
    formState: { errors, isValid },
  } = useForm<ProfileFormInput>({
    resolver: zodResolver(requireCurrentPasswordOnEmailChange(profileFormSchema, user.email)),
    mode: 'all',
    defaultValues: {
      lastname: user.lastname ?? '',
      firstname: user.firstname ?? '',
      email: user.email,
      phone: user.phone ?? '',
      current_password: '',
    },
  });
  const emailChanges = isEmailChange(user.email, watch('email'));

  const save = useMutation({
    mutationFn: ({ current_password, ...profile }: ProfileFormInput) =>
      updateProfile(emailChanges ? { ...profile, current_password } : profile),
    onSuccess: ({ data }) => {
      storeUser(data);
      alertSuccess(MESSAGES.profileUpdated, TITLES.profile);
      onSaved();
    },
    meta: { errorTitle: TITLE },
    onError: (error) => showFieldErrors(error, setError, ['lastname', 'firstname', 'email', 'phone', 'current_password']),
  });

  return (
    <form noValidate onSubmit={handleSubmit((values) => save.mutate(values))}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Nom"
          withAsterisk
          maxLength={textLimitOf(profileSchema.shape.lastname)}
          error={errors.lastname?.message}
          {...register('lastname')}
        />
        <TextInput
          label="Prénoms"
          withAsterisk
          maxLength={textLimitOf(profileSchema.shape.firstname)}
          error={errors.firstname?.message}
          {...register('firstname')}
        />
        <EmailField maxLength={textLimitOf(profileSchema.shape.email)} error={errors.email?.message} {...register('email')} />
        <TextInput
          label="Téléphone"
          type="tel"
          inputMode="numeric"
          withAsterisk
          maxLength={textLimitOf(profileSchema.shape.phone)}
          error={errors.phone?.message}
          {...register('phone')}
        />
        {emailChanges && <CurrentPasswordField error={errors.current_password?.message} registration={register('current_password')} />}
      </SimpleGrid>
      <Group justify="flex-end" mt="lg">
        <Button type="submit" disabled={!isValid} loading={save.isPending}>
          Enregistrer
        </Button>
      </Group>
    </form>
  );
}
