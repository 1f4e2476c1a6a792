import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { ACCOUNT_MESSAGES, type ChangePasswordInput, changePasswordSchema, TEXT_LIMITS, TITLES } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import { type FieldPath, useForm } from 'react-hook-form';
import { ApiError } from '../../api/api-error.ts';
import { notifySuccess } from '../../components/notify.tsx';
import { useEndSession } from '../../components/use-sign-out.ts';
import { clearSession } from '../../session/session.ts';
import { changePassword } from './account-api.ts';
import { showAccountFailure } from './account-failure.tsx';

const FIELDS = [
  { name: 'old_password', label: 'Ancien mot de passe', autoComplete: 'current-password' },
  { name: 'new_password', label: 'Nouveau mot de passe', autoComplete: 'new-password' },
  { name: 'confirm_password', label: 'Confirmer le mot de passe', autoComplete: 'new-password' },
] as const satisfies { name: FieldPath<ChangePasswordInput>; label: string; autoComplete: string }[];

/**
 * "Mot de passe": old, new and confirmation (8 characters at least, the confirmation must match).
 * The server then ends every session of the user: this one ends too, on /admin/login (spec §4).
 */
export function PasswordForm() {
  const endSession = useEndSession();
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    trigger,
    formState: { errors, isValid },
  } = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    mode: 'all',
    defaultValues: { old_password: '', new_password: '', confirm_password: '' },
  });

  // Once typed, the confirmation is checked again whenever the new password changes.
  const recheckConfirmation = () => {
    if (getValues('confirm_password')) void trigger('confirm_password');
  };

  const save = useMutation({
    mutationFn: changePassword,
    onSuccess: ({ message }) => {
      notifySuccess(message, TITLES.account);
      // Router updates render as transitions, session updates at once: without this, the /admin guard
      // would see the cleared session first and its redirect to /login would win over /admin/login.
      flushSync(clearSession);
      endSession('/admin/login');
    },
    onError: (error) => {
      // The server's field errors (a wrong old password...) also show under their field.
      if (error instanceof ApiError) {
        for (const field of FIELDS) {
          const [message] = error.errorsList?.[field.name] ?? [];
          if (message) setError(field.name, { message });
        }
      }
      showAccountFailure(ACCOUNT_MESSAGES.passwordFailed, error);
    },
  });

  return (
    <form noValidate onSubmit={handleSubmit((values) => save.mutate(values))}>
      <Stack maw={480}>
        {FIELDS.map((field) => (
          <PasswordInput
            key={field.name}
            label={field.label}
            autoComplete={field.autoComplete}
            withAsterisk
            maxLength={TEXT_LIMITS.password}
            visibilityToggleFocusable
            visibilityToggleButtonProps={{ 'aria-label': `Afficher : ${field.label.toLowerCase()}` }}
            error={errors[field.name]?.message}
            {...register(field.name, field.name === 'new_password' ? { onChange: recheckConfirmation } : undefined)}
          />
        ))}
        <Group>
          <Button type="submit" disabled={!isValid || save.isPending} loading={save.isPending}>
            Changer le mot de passe
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
