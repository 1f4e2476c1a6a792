import type { UseFormRegisterReturn } from 'react-hook-form';
import { PasswordField } from './credential-fields.tsx';

/** "Mot de passe actuel", asked when the email changes (Mon compte, Mon profil): the server checks it. */
export function CurrentPasswordField({ error, registration }: { error?: string; registration: UseFormRegisterReturn }) {
  return (
    <PasswordField
      label="Mot de passe actuel"
      shows="le mot de passe actuel"
      description="Requis pour changer d'email"
      autoComplete="current-password"
      required
      error={error}
      {...registration}
    />
  );
}
