import { zodResolver } from '@hookform/resolvers/zod';
import { Badge, Button, Group, Loader, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { MESSAGES, TEXT_LIMITS, TWO_FACTOR_MESSAGES, twoFactorDisableSchema } from '@reformes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../../api/api-error.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { storeUser } from '../../session/session.ts';
import { fetchCurrentUser } from '../../session/session-api.ts';
import { disableTwoFactor, TWO_FACTOR_KEY, twoFactorStatusQuery } from './two-factor-api.ts';
import { TwoFactorEnrolment } from './two-factor-enrolment.tsx';

/** Reads the user again, so that the session (and the guards) know the second factor's new state. */
export async function reloadCurrentUser(): Promise<void> {
  storeUser((await fetchCurrentUser()).data);
}

/** "Mon compte" > "Double authentification": its state, then enrolment or, once on, turning it off. */
export function TwoFactorTab() {
  const queryClient = useQueryClient();
  const status = useQuery(twoFactorStatusQuery());
  const [enrolling, setEnrolling] = useState(false);
  const refresh = async () => {
    setEnrolling(false);
    await Promise.all([queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY }), reloadCurrentUser()]);
  };

  if (status.error) return <ErrorAlert title={TWO_FACTOR_MESSAGES.title} error={status.error} />;
  if (!status.data) {
    return (
      <Group role="status">
        <Loader size="sm" aria-label={MESSAGES.loading} />
      </Group>
    );
  }
  const { enabled, required, recovery_codes_left } = status.data;
  return (
    <Stack>
      <Group gap="xs">
        <Text fw={600}>{TWO_FACTOR_MESSAGES.title} :</Text>
        <Badge color={enabled ? 'teal.9' : 'gray'} variant={enabled ? 'filled' : 'light'}>
          {enabled ? TWO_FACTOR_MESSAGES.statusOn : TWO_FACTOR_MESSAGES.statusOff}
        </Badge>
      </Group>
      {required && <Text size="sm">Votre rôle exige la double authentification.</Text>}
      {enabled ? (
        <>
          <Text size="sm">{`Codes de secours restants : ${recovery_codes_left}`}</Text>
          {!required && <DisableForm onDone={refresh} />}
        </>
      ) : enrolling ? (
        <TwoFactorEnrolment onDone={refresh} />
      ) : (
        <Group>
          <Button onClick={() => setEnrolling(true)}>Activer la double authentification</Button>
        </Group>
      )}
    </Stack>
  );
}

type DisableInput = z.input<typeof twoFactorDisableSchema>;

function DisableForm({ onDone }: { onDone: () => Promise<void> }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DisableInput, unknown, z.output<typeof twoFactorDisableSchema>>({
    resolver: zodResolver(twoFactorDisableSchema),
    defaultValues: { password: '', code: '' },
  });
  const disable = useMutation({
    mutationFn: disableTwoFactor,
    onSuccess: async (response) => {
      notifySuccess(response.message, TWO_FACTOR_MESSAGES.title);
      await onDone();
    },
    onError: (error) => {
      const fields = error instanceof ApiError ? error.errorsList : undefined;
      for (const name of ['password', 'code'] as const) {
        const message = fields?.[name]?.[0];
        if (message) setError(name, { message });
      }
      if (!fields) setError('code', { message: error.message });
    },
  });
  return (
    <form noValidate onSubmit={handleSubmit((values) => disable.mutate(values))}>
      <Stack maw={420}>
        <Text size="sm">Pour la désactiver, confirmez avec votre mot de passe et un code.</Text>
        <PasswordInput
          label="Mot de passe"
          autoComplete="current-password"
          withAsterisk
          maxLength={TEXT_LIMITS.password}
          error={errors.password?.message}
          {...register('password')}
        />
        <TextInput
          label={TWO_FACTOR_MESSAGES.codeLabel}
          description={TWO_FACTOR_MESSAGES.codeHelp}
          autoComplete="one-time-code"
          withAsterisk
          error={errors.code?.message}
          {...register('code')}
        />
        <Group>
          <Button type="submit" color="red" loading={disable.isPending}>
            Désactiver la double authentification
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
