import { PasswordInput } from '@mantine/core';
import { TEXT_LIMITS } from '@reformes/domain';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';

interface PasswordPairFieldsProps {
  password: UseFormRegisterReturn;
  confirmation: UseFormRegisterReturn;
  passwordError?: FieldError;
  confirmationError?: FieldError;
}

/** New password and its confirmation, shared by the first-password and recovery screens. */
export function PasswordPairFields({ password, confirmation, passwordError, confirmationError }: PasswordPairFieldsProps) {
  return (
    <>
      <PasswordInput
        label="Nouveau mot de passe"
        autoComplete="new-password"
        withAsterisk
        maxLength={TEXT_LIMITS.password}
        visibilityToggleFocusable
        visibilityToggleButtonProps={{ 'aria-label': 'Afficher le nouveau mot de passe' }}
        error={passwordError?.message}
        {...password}
      />
      <PasswordInput
        label="Confirmation du mot de passe"
        autoComplete="new-password"
        withAsterisk
        maxLength={TEXT_LIMITS.password}
        visibilityToggleFocusable
        visibilityToggleButtonProps={{ 'aria-label': 'Afficher la confirmation du mot de passe' }}
        error={confirmationError?.message}
        {...confirmation}
      />
    </>
  );
}
