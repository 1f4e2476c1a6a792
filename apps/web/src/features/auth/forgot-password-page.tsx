import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { type ForgotPasswordInput, forgotPasswordSchema, MESSAGES, TITLES } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { EmailField } from '../../components/credential-fields.tsx';
import { notifyError } from '../../components/notify.tsx';
import { requestPasswordReset } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';

export function ForgotPasswordPage() {
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(forgotPasswordSchema), defaultValues: { email: '' } });

  const request = useMutation({
    mutationFn: (input: ForgotPasswordInput) => requestPasswordReset(input),
    onError: () => notifyError(MESSAGES.forgotFailed, TITLES.login),
  });

  return (
    <AuthCard title="Mot de passe oublié ?">
      {request.isSuccess ? (
        <Alert color="green" title={MESSAGES.forgotSent} role="status">
          <Text size="sm">{MESSAGES.forgotSentDetail}</Text>
        </Alert>
      ) : (
        <form noValidate onSubmit={handleSubmit((values) => request.mutate(values))}>
          <Stack>
            <EmailField autoComplete="email" error={errors.email?.message} {...register('email')} />
            <Button type="submit" disabled={request.isPending} fullWidth>
              {request.isPending ? 'Envoi...' : 'Récupérer'}
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/auth/login" ta="center" size="sm">
        Retour à la connexion
      </Anchor>
    </AuthCard>
  );
}
