import { zodResolver } from '@hookform/resolvers/zod';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { type LoginInput, loginSchema, MESSAGES, PAGE_HEADS, type SignIn, TITLES, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { ApiError } from '../../api/api-error.ts';
import { EmailField, PasswordField } from '../../components/credential-fields.tsx';
import { notifyError, notifySuccess } from '../../components/notify.tsx';
import { TwoFactorCodeInput, useTwoFactorCode } from '../../components/two-factor-code.tsx';
import { storeSignIn } from '../../session/session.ts';
import { signIn, signInWithCode } from './auth-api.ts';
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

  const [challenge, setChallenge] = useState<string>();
  // The guards send a user whose role demands a second factor to its enrolment first.
  const enter = (data: SignIn) => {
    storeSignIn(data);
    notifySuccess(MESSAGES.loginSuccess, TITLES.login);
    navigate(data.user.must_change_password ? '/auth/activate-account' : '/admin/dashboard', { replace: true });
  };
  const login = useMutation({
    mutationFn: (credentials: LoginInput) => signIn(credentials),
    onSuccess: ({ data }) => ('challenge_token' in data ? setChallenge(data.challenge_token) : enter(data)),
    onError: (error) => notifyError(error.message, TITLES.login),
  });

  if (challenge) return <CodeStep challenge={challenge} onSignedIn={enter} onBack={() => setChallenge(undefined)} />;

  return (
    <AuthCard title="CONNEXION" head={PAGE_HEADS.login}>
      <form noValidate onSubmit={handleSubmit((values) => login.mutate(values))}>
        <Stack>
          <EmailField autoComplete="username" error={errors.email?.message} {...register('email')} />
          <PasswordField
            label="Mot de passe"
            shows="le mot de passe"
            autoComplete="current-password"
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

/** The second step of a sign-in with a second factor: the code of the app, or a recovery code. */
function CodeStep({ challenge, onSignedIn, onBack }: { challenge: string; onSignedIn: (data: SignIn) => void; onBack: () => void }) {
  const code = useTwoFactorCode();
  const verify = useMutation({
    mutationFn: (value: string) => signInWithCode(challenge, value),
    onSuccess: ({ data }) => onSignedIn(data),
    onError: (failure) => {
      code.setError(failure.message);
      notifyError(failure.message, TITLES.login);
      // An expired challenge needs the password again.
      if (failure instanceof ApiError && failure.message === TWO_FACTOR_MESSAGES.challengeExpired) onBack();
    },
  });
  return (
    <AuthCard title="CONNEXION" head={PAGE_HEADS.login}>
      <form noValidate onSubmit={code.onSubmit((value) => verify.mutate(value))}>
        <Stack>
          <Text>{TWO_FACTOR_MESSAGES.signInStep}</Text>
          <TwoFactorCodeInput description={TWO_FACTOR_MESSAGES.codeHelp} autoFocus {...code.input} />
          <Button type="submit" disabled={verify.isPending} fullWidth>
            {verify.isPending ? 'Vérification...' : 'Vérifier'}
          </Button>
          <Anchor component="button" type="button" onClick={onBack} ta="center" size="sm">
            Retour à la connexion
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
