import { Button, type ButtonProps, Group, type MantineSpacing } from '@mantine/core';
import type { ReactNode } from 'react';

interface FormButtonsProps {
  onCancel: () => void;
  /** "Annuler" by default; "Fermer" where what was saved stays saved. */
  cancelLabel?: string;
  /** Greys "Annuler" out while saving, for a save that must not be left half-way. */
  cancelDisabled?: boolean;
  submitLabel: ReactNode;
  saving?: boolean;
  /** False greys the submit button out (a form that is not valid yet, a locked reform). */
  canSubmit?: boolean;
  /** The submit button's look: `color`, `leftSection`. */
  submitProps?: Pick<ButtonProps, 'color' | 'leftSection'>;
  mt?: MantineSpacing;
  /** Buttons before "Annuler" ("Annuler la modification"). */
  children?: ReactNode;
}

/** The end of a form: its cancel button, then its submit button, which spins while saving. */
export function FormButtons({
  onCancel,
  cancelLabel = 'Annuler',
  cancelDisabled = false,
  submitLabel,
  saving = false,
  canSubmit = true,
  submitProps,
  mt = 'lg',
  children,
}: FormButtonsProps) {
  return (
    <Group justify="flex-end" mt={mt}>
      {children}
      <Button variant="default" onClick={onCancel} disabled={cancelDisabled && saving}>
        {cancelLabel}
      </Button>
      <Button type="submit" disabled={!canSubmit} loading={saving} {...submitProps}>
        {submitLabel}
      </Button>
    </Group>
  );
}
