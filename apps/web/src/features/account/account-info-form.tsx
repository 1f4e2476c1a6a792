import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import {
  ACCOUNT_MESSAGES,
  isEmailChange,
  requireCurrentPasswordOnEmailChange,
  TEXT_LIMITS,
  TITLES,
  userUpdateSchema,
} from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { showFieldErrors } from '../../api/field-errors.ts';
import { CurrentPasswordField } from '../../components/current-password-field.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { type CurrentUser, storeUser } from '../../session/session.ts';
import { updateEmail } from './account-api.ts';
import { showAccountFailure } from './account-failure.tsx';

/** The account page edits the email alone (spec §2.7), with the current password once it changes (issue 14). */
const accountInfoSchema = userUpdateSchema.pick({ email: true, current_password: true });
type AccountInfoInput = z.infer<typeof accountInfoSchema>;

/** "Information personnelle": the email, required and valid; "Sauvegarder mes informations". */
export function AccountInfoForm({ user }: { user: CurrentUser }) {
  // A new form once the email is saved: the saved address becomes the current one and the password field goes.
  return <EmailForm key={user.email} currentEmail={user.email} />;
}

function EmailForm({ currentEmail }: { currentEmail: string }) {
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isValid },
  } = useForm<AccountInfoInput>({
    resolver: zodResolver(requireCurrentPasswordOnEmailChange(accountInfoSchema, currentEmail)),
    mode: 'all',
    defaultValues: { email: currentEmail, current_password: '' },
  });
  const emailChanges = isEmailChange(currentEmail, watch('email'));

  const save = useMutation({
    mutationFn: ({ email, current_password }: AccountInfoInput) => updateEmail(email, emailChanges ? current_password : undefined),
    onSuccess: ({ data }) => {
      storeUser(data);
      notifySuccess(ACCOUNT_MESSAGES.infoSaved, TITLES.account);
    },
    onError: (error) => {
      showFieldErrors(error, setError, ['email', 'current_password']);
      showAccountFailure(ACCOUNT_MESSAGES.infoFailed, error);
    },
  });

  return (
    <form noValidate onSubmit={handleSubmit((values) => save.mutate(values))}>
      <Stack maw={480}>
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          withAsterisk
          maxLength={TEXT_LIMITS.email}
          error={errors.email?.message}
          {...register('email')}
        />
        {emailChanges && <CurrentPasswordField error={errors.current_password?.message} registration={register('current_password')} />}
        <Group>
          <Button type="submit" disabled={!isValid} loading={save.isPending}>
            Sauvegarder mes informations
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
