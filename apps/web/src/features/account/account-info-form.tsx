import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { ACCOUNT_MESSAGES, TITLES, userUpdateSchema } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { type CurrentUser, storeUser } from '../../app/session.ts';
import { notifySuccess } from '../../components/notify.tsx';
import { updateEmail } from './account-api.ts';
import { showAccountFailure } from './account-failure.tsx';

/** The account page edits the email alone (spec §2.7). */
const accountInfoSchema = userUpdateSchema.pick({ email: true });

/** "Information personnelle": the email, required and valid; "Sauvegarder mes informations". */
export function AccountInfoForm({ user }: { user: CurrentUser }) {
  const {
    register,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm({ resolver: zodResolver(accountInfoSchema), mode: 'all', defaultValues: { email: user.email } });

  const save = useMutation({
    mutationFn: ({ email }: { email: string }) => updateEmail(email),
    onSuccess: ({ data }) => {
      storeUser(data);
      notifySuccess(ACCOUNT_MESSAGES.infoSaved, TITLES.account);
    },
    onError: (error) => showAccountFailure(ACCOUNT_MESSAGES.infoFailed, error),
  });

  return (
    <form noValidate onSubmit={handleSubmit((values) => save.mutate(values))}>
      <Stack maw={480}>
        <TextInput label="Email" type="email" autoComplete="email" withAsterisk error={errors.email?.message} {...register('email')} />
        <Group>
          <Button type="submit" disabled={!isValid} loading={save.isPending}>
            Sauvegarder mes informations
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
