import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type LoginInput, loginSchema, MESSAGES, TEXT_LIMITS, TITLES } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { notifyError, notifySuccess } from '../../components/notify.tsx';
import { storeSignIn } from '../../session/session.ts';
import { signIn } from './auth-api.ts';
import { AuthCard } from './auth-card.tsx';

export function LoginPage() {
  const navigate = useNavigate();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '', device: 'web' },
  });

  const login = useMutation({
    mutationFn: (credentials: LoginInput) => signIn(credentials),
    onSuccess: ({ data }) => {
      storeSignIn(data);
      notifySuccess(MESSAGES.loginSuccess, TITLES.login);
      navigate(data.user.must_change_password ? '/auth/activate-account' : '/admin/dashboard', { replace: true });
    },
    onError: (error) => notifyError(error.message, TITLES.login),
  });

  return (
    <AuthCard title="CONNEXION">
      <form noValidate onSubmit={handleSubmit((values) => login.mutate(values))}>
        <Stack>
          <TextInput
            label="Email"
            type="email"
            autoComplete="username"
            withAsterisk
            maxLength={TEXT_LIMITS.email}
            error={errors.email?.message}
            {...register('email')}
          />
          <PasswordInput
            label="Mot de passe"
            autoComplete="current-password"
            withAsterisk
            maxLength={TEXT_LIMITS.password}
            visibilityToggleFocusable
            visibilityToggleButtonProps={{ 'aria-label': 'Afficher le mot de passe' }}
            error={errors.password?.message}
            {...register('password')}
          />
          <Button type="submit" disabled={login.isPending} fullWidth>
            {login.isPending ? 'Connexion...' : 'Se connecter'}
          </Button>
          <Anchor component={Link} to="/auth/forget-password" ta="center" size="sm">
            Mot de passe oublié ?
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
