import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { PasswordField } from '../../components/credential-fields.tsx';

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
      <PasswordField
        label="Nouveau mot de passe"
        shows="le nouveau mot de passe"
        autoComplete="new-password"
        error={passwordError?.message}
        {...password}
      />
      <PasswordField
        label="Confirmation du mot de passe"
        shows="la confirmation du mot de passe"
        autoComplete="new-password"
        error={confirmationError?.message}
        {...confirmation}
      />
    </>
  );
}
