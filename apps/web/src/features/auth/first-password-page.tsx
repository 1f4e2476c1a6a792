import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Stack, Text } from '@mantine/core';
import { type FirstPasswordInput, firstPasswordSchema, MESSAGES, TITLES } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { ApiError } from '../../api/api-error.ts';
import { showFieldErrors } from '../../api/field-errors.ts';
import { ErrorMessage } from '../../components/error-message.tsx';
import { alertSuccess, notifyError } from '../../components/notify.tsx';
import { useEndSession, useSignOut } from '../../components/use-sign-out.ts';
import { changeFirstPassword } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { PasswordPairFields } from './password-pair-fields.tsx';

/** /auth/activate-account: a temporary password must be replaced before anything else (spec §8). */
export function FirstPasswordPage() {
  const endSession = useEndSession();
  // The only way out of this screen for someone who signed in with the wrong account.
  const signOut = useSignOut();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(firstPasswordSchema),
    defaultValues: { password: '', confirm_password: '' },
  });

  const change = useMutation({
    mutationFn: (input: FirstPasswordInput) => changeFirstPassword(input),
    onSuccess: () => {
      alertSuccess(MESSAGES.passwordChanged, TITLES.firstPassword);
      endSession();
    },
    onError: (error) => {
      // The server's own rules (a too common password...) also show under the field.
      showFieldErrors(error, setError, ['password', 'confirm_password']);
      notifyError(
        <>
          <Text size="sm" fw={700}>
            {MESSAGES.passwordChangeFailed}
          </Text>
          {error instanceof ApiError && <ErrorMessage message={error.message} errorsList={error.errorsList} />}
        </>,
        TITLES.firstPassword,
      );
    },
  });

  return (
    <AuthCard title={TITLES.firstPassword}>
      <Text size="sm">{MESSAGES.mustChangePassword}</Text>
      <form noValidate onSubmit={handleSubmit((values) => change.mutate(values))}>
        <Stack>
          <PasswordPairFields
            password={register('password')}
            confirmation={register('confirm_password')}
            passwordError={errors.password}
            confirmationError={errors.confirm_password}
          />
          <Button type="submit" loading={change.isPending} fullWidth>
            Changer le mot de passe
          </Button>
          <Button variant="subtle" onClick={() => void signOut()}>
            Se déconnecter
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
