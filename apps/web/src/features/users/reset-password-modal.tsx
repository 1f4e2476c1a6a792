import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack } from '@mantine/core';
import { type ResetPasswordInput, resetPasswordSchema, TITLES, USERS_ROUTES } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { call } from '../../api/call.ts';
import { showFieldErrors } from '../../api/field-errors.ts';
import { EmailField, PasswordField } from '../../components/credential-fields.tsx';
import { FormButtons } from '../../components/form-buttons.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import type { UserRow } from './users-list.tsx';

const TITLE = 'Réinitialiser le mot de passe';

function resetPassword(input: ResetPasswordInput) {
  return call(USERS_ROUTES.resetPassword, { body: input });
}

interface ResetPasswordModalProps {
  /** The account whose password is reset; the modal is closed without one. */
  user: UserRow | undefined;
  onClose: () => void;
}

/** Admin's reset (spec §2.8, §5): email, password and confirmation, min 8, equal. */
export function ResetPasswordModal({ user, onClose }: ResetPasswordModalProps) {
  return (
    <Modal opened={user !== undefined} onClose={onClose} title={TITLE}>
      {user && <ResetPasswordForm user={user} onDone={onClose} />}
    </Modal>
  );
}

function ResetPasswordForm({ user, onDone }: { user: UserRow; onDone: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isValid },
  } = useForm({
    resolver: zodResolver(resetPasswordSchema),
    mode: 'all',
    defaultValues: { id: user.id, email: user.email, password: '', password_confirmation: '' },
  });

  const reset = useMutation({
    mutationFn: resetPassword,
    onSuccess: (response) => {
      notifySuccess(response.message, TITLES.users);
      onDone();
    },
    meta: { errorTitle: TITLES.users },
    // The server's own rules (a too common password...) also show under the field.
    onError: (error) => showFieldErrors(error, setError, ['email', 'password', 'password_confirmation']),
  });

  return (
    <form noValidate onSubmit={handleSubmit((values) => reset.mutate(values))}>
      <Stack>
        <EmailField error={errors.email?.message} {...register('email')} />
        {/* An admin types the password it hands over: the eye buttons stay out of the Tab order, no length cap here. */}
        <PasswordField
          label="Mot de passe"
          shows="le mot de passe"
          autoComplete="new-password"
          data-autofocus
          maxLength={undefined}
          visibilityToggleFocusable={false}
          error={errors.password?.message}
          {...register('password', { deps: ['password_confirmation'] })}
        />
        <PasswordField
          label="Confirmation du mot de passe"
          shows="la confirmation du mot de passe"
          autoComplete="new-password"
          maxLength={undefined}
          visibilityToggleFocusable={false}
          error={errors.password_confirmation?.message}
          {...register('password_confirmation')}
        />
      </Stack>
      <FormButtons onCancel={onDone} submitLabel="Réinitialiser" saving={reset.isPending} canSubmit={isValid} />
    </form>
  );
}
