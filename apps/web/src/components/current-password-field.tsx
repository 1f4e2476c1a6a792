import { PasswordInput } from '@mantine/core';
import { TEXT_LIMITS } from '@reformes/domain';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** "Mot de passe actuel", asked when the email changes (Mon compte, Mon profil): the server checks it. */
export function CurrentPasswordField({ error, registration }: { error?: string; registration: UseFormRegisterReturn }) {
  return (
    <PasswordInput
      label="Mot de passe actuel"
      description="Requis pour changer d'email"
      autoComplete="current-password"
      required
      maxLength={TEXT_LIMITS.password}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': 'Afficher le mot de passe actuel' }}
      error={error}
      {...registration}
    />
  );
}
