import { PasswordInput, TextInput } from '@mantine/core';
import { TEXT_LIMITS } from '@reformes/domain';
import type { ComponentProps } from 'react';

/** "Email", as an email, at most TEXT_LIMITS.email characters; the rest as given (`{...register('email')}`). */
export function EmailField(props: ComponentProps<typeof TextInput>) {
  return <TextInput label="Email" type="email" withAsterisk maxLength={TEXT_LIMITS.email} {...props} />;
}

type PasswordFieldProps = ComponentProps<typeof PasswordInput> & {
  /** What the eye button shows, after "Afficher ": "le mot de passe actuel". */
  shows: string;
};

/** A password, at most TEXT_LIMITS.password characters, whose eye button is named and reached with Tab. */
export function PasswordField({ shows, ...props }: PasswordFieldProps) {
  return (
    <PasswordInput
      withAsterisk
      maxLength={TEXT_LIMITS.password}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': `Afficher ${shows}` }}
      {...props}
    />
  );
}
