import { Code, Group, Image, List, Loader, Stack, Text } from '@mantine/core';
import { MESSAGES, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';
import { enableTwoFactor, startTwoFactorSetup } from './two-factor-api.ts';
import { ConfirmForm } from './two-factor-confirm-form.tsx';

interface TwoFactorEnrolmentProps {
  /** The second factor is on (the status may show it at once); the recovery codes are still on screen. */
  onEnabled?: () => void | Promise<void>;
  /** The user noted the recovery codes. */
  onDone: () => void;
}

/**
 * Enrolment of the second factor: a new secret as a QR code and as a key to type, confirmed by the current password
 * and the first code the app shows (a session alone cannot enrol an authenticator); then the 10 recovery codes,
 * shown once, to note or download before going on.
 */
export function TwoFactorEnrolment({ onEnabled, onDone }: TwoFactorEnrolmentProps) {
  const id = useId();
  const setup = useMutation({ mutationFn: startTwoFactorSetup });
  const [codes, setCodes] = useState<string[]>();

  // A new secret each time the enrolment opens: nothing is kept from an abandoned one.
  const { mutate: start } = setup;
  useEffect(() => start(), [start]);

  if (codes) return <RecoveryCodesPanel codes={codes} onDone={onDone} />;
  if (setup.error) return <ErrorAlert title={TWO_FACTOR_MESSAGES.title} error={setup.error} />;
  if (!setup.data) {
    return (
      <Group role="status">
        <Loader size="sm" aria-label={MESSAGES.loading} />
      </Group>
    );
  }
  return (
    <ConfirmForm
      submitLabel="Activer"
      codeDescription="Les 6 chiffres affichés par votre application"
      send={enableTwoFactor}
      onSuccess={async (response) => {
        notifySuccess(response.message, TWO_FACTOR_MESSAGES.title);
        setCodes(response.data.recovery_codes);
        await onEnabled?.();
      }}
    >
      <Text>{TWO_FACTOR_MESSAGES.enrolIntro}</Text>
      <Group align="flex-start" gap="xl">
        <Image src={setup.data.qr_code} w={220} h={220} alt="QR code d'activation de la double authentification" />
        <Stack gap={4}>
          <Text size="sm" fw={600} id={`${id}-key`}>
            {TWO_FACTOR_MESSAGES.manualKey}
          </Text>
          <Code fz="md" aria-labelledby={`${id}-key`}>
            {setup.data.secret}
          </Code>
          <List size="sm" mt="xs">
            <List.Item>Type : basé sur le temps (TOTP)</List.Item>
            <List.Item>6 chiffres, toutes les 30 secondes</List.Item>
          </List>
        </Stack>
      </Group>
    </ConfirmForm>
  );
}
