import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, PasswordInput, Stack } from '@mantine/core';
import { TEXT_LIMITS, TWO_FACTOR_MESSAGES, twoFactorConfirmSchema } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../../api/api-error.ts';
import { TwoFactorCodeInput } from '../../components/two-factor-code.tsx';
import type { PasswordAndCode } from './two-factor-api.ts';

interface ConfirmFormProps<Answer> {
  /** What the form is for, above its fields (the QR code of the enrolment). */
  children?: ReactNode;
  submitLabel: string;
  color?: string;
  codeDescription?: string;
  send: (input: PasswordAndCode) => Promise<Answer>;
  onSuccess: (answer: Answer) => void | Promise<void>;
}

/**
 * The current password and a code, asked to turn the second factor on or off or to renew the recovery codes. The
 * server answers a wrong password and a wrong code alike (one message for both fields), and a 429 when the account
 * must wait: the message shows once, above the button.
 */
export function ConfirmForm<Answer>({ children, submitLabel, color, codeDescription, send, onSuccess }: ConfirmFormProps<Answer>) {
  const [refusal, setRefusal] = useState<{ message: string; fields: string[] }>();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof twoFactorConfirmSchema>, unknown, PasswordAndCode>({
    resolver: zodResolver(twoFactorConfirmSchema),
    defaultValues: { password: '', code: '' },
  });
  const confirm = useMutation({
    mutationFn: send,
    onMutate: () => setRefusal(undefined),
    onSuccess,
    onError: (error) =>
      setRefusal({ message: error.message, fields: error instanceof ApiError ? Object.keys(error.errorsList ?? {}) : [] }),
  });
  const isRefused = (field: 'password' | 'code') => refusal?.fields.includes(field) ?? false;
  return (
    <form noValidate onSubmit={handleSubmit((values) => confirm.mutate(values))}>
      <Stack maw={children ? undefined : 420}>
        {children}
        <Stack maw={420}>
          <PasswordInput
            label={TWO_FACTOR_MESSAGES.currentPasswordLabel}
            autoComplete="current-password"
            withAsterisk
            maxLength={TEXT_LIMITS.password}
            error={errors.password?.message ?? isRefused('password')}
            {...register('password')}
          />
          <TwoFactorCodeInput
            description={codeDescription ?? TWO_FACTOR_MESSAGES.codeHelp}
            error={errors.code?.message ?? isRefused('code')}
            {...register('code')}
          />
          {refusal && (
            <Alert color="red" role="alert">
              {refusal.message}
            </Alert>
          )}
          <Group>
            <Button type="submit" color={color} loading={confirm.isPending}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </Stack>
    </form>
  );
}
