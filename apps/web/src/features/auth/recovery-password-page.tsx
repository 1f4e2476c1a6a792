import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Stack } from '@mantine/core';
import { MESSAGES, type RecoveryPasswordInput, recoveryPasswordSchema } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { showFieldErrors } from '../../api/field-errors.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { recoverPassword } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';
import { PasswordPairFields } from './password-pair-fields.tsx';

/** /auth/recovery-password/:token, reached from the link of the reset mail. */
export function RecoveryPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(recoveryPasswordSchema),
    defaultValues: { token, password: '', password_confirmation: '' },
  });

  const recover = useMutation({
    mutationFn: (input: RecoveryPasswordInput) => recoverPassword(input),
    onSuccess: () => {
      notifySuccess(MESSAGES.passwordChanged);
      navigate('/login', { replace: true });
    },
    // The server's own rules (a too common password...) also show under the field.
    onError: (error) => showFieldErrors(error, setError, ['password', 'password_confirmation']),
  });

  return (
    <AuthCard title="Saisir un nouveau mot de passe">
      {recover.isError && <ErrorAlert title={MESSAGES.passwordChangeFailed} error={recover.error} />}
      <form noValidate onSubmit={handleSubmit((values) => recover.mutate({ ...values, token }))}>
        <Stack>
          <PasswordPairFields
            password={register('password')}
            confirmation={register('password_confirmation')}
            passwordError={errors.password}
            confirmationError={errors.password_confirmation ?? errors.token}
          />
          <Button type="submit" loading={recover.isPending} fullWidth>
            Changer le mot de passe
          </Button>
        </Stack>
      </form>
      <Anchor component={Link} to="/login" ta="center" size="sm">
        Retour à la connexion
      </Anchor>
    </AuthCard>
  );
}
