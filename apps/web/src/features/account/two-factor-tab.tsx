import { Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { MESSAGES, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchCurrentUser } from '../../api/session-api.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { storeUser } from '../../session/session.ts';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';
import { disableTwoFactor, renewRecoveryCodes, TWO_FACTOR_KEY, twoFactorStatusQuery } from './two-factor-api.ts';
import { ConfirmForm } from './two-factor-confirm-form.tsx';
import { TwoFactorEnrolment } from './two-factor-enrolment.tsx';

/** Reads the user again, so that the session (and the guards) know the second factor's new state. */
export async function reloadCurrentUser(): Promise<void> {
  storeUser((await fetchCurrentUser()).data);
}

/**
 * "Mon compte" > "Double authentification": its state, then enrolment or, once on, new recovery codes or turning it
 * off. The state follows each change at once, while the new recovery codes stay on screen until noted.
 */
export function TwoFactorTab() {
  const queryClient = useQueryClient();
  const status = useQuery(twoFactorStatusQuery());
  const [step, setStep] = useState<'enrol' | 'renew'>();
  const [codes, setCodes] = useState<string[]>();
  const refresh = async () => {
    await Promise.all([queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY }), reloadCurrentUser()]);
  };
  const close = () => {
    setStep(undefined);
    setCodes(undefined);
  };

  if (status.error) return <ErrorAlert title={TWO_FACTOR_MESSAGES.title} error={status.error} />;
  if (!status.data) {
    return (
      <Group role="status">
        <Loader size="sm" aria-label={MESSAGES.loading} />
      </Group>
    );
  }
  const { enabled, required, recovery_codes_left } = status.data;
  const body = () => {
    if (step === 'enrol') return <TwoFactorEnrolment onEnabled={refresh} onDone={close} />;
    if (codes) return <RecoveryCodesPanel codes={codes} onDone={close} />;
    if (!enabled) {
      return (
        <Group>
          <Button onClick={() => setStep('enrol')}>Activer la double authentification</Button>
        </Group>
      );
    }
    return (
      <>
        <Text size="sm">{`Codes de secours restants : ${recovery_codes_left}`}</Text>
        {step === 'renew' ? (
          <Stack>
            <Text size="sm">{TWO_FACTOR_MESSAGES.renewRecoveryCodesIntro}</Text>
            <ConfirmForm
              submitLabel={TWO_FACTOR_MESSAGES.renewRecoveryCodes}
              send={renewRecoveryCodes}
              onSuccess={async (response) => {
                notifySuccess(response.message, TWO_FACTOR_MESSAGES.title);
                setCodes(response.data.recovery_codes);
                await queryClient.invalidateQueries({ queryKey: TWO_FACTOR_KEY });
              }}
            />
            <Group>
              <Button variant="default" onClick={close}>
                Annuler
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group>
            <Button variant="light" onClick={() => setStep('renew')}>
              {TWO_FACTOR_MESSAGES.renewRecoveryCodes}
            </Button>
          </Group>
        )}
        {!required && step !== 'renew' && (
          <Stack>
            <Text size="sm">Pour la désactiver, confirmez avec votre mot de passe et un code.</Text>
            <ConfirmForm
              submitLabel={TWO_FACTOR_MESSAGES.disable}
              color="red"
              send={disableTwoFactor}
              onSuccess={async (response) => {
                notifySuccess(response.message, TWO_FACTOR_MESSAGES.title);
                await refresh();
              }}
            />
          </Stack>
        )}
      </>
    );
  };
  return (
    <Stack>
      <Group gap="xs">
        <Text fw={600}>{TWO_FACTOR_MESSAGES.title} :</Text>
        <Badge color={enabled ? 'teal.9' : 'gray'} variant={enabled ? 'filled' : 'light'}>
          {enabled ? TWO_FACTOR_MESSAGES.statusOn : TWO_FACTOR_MESSAGES.statusOff}
        </Badge>
      </Group>
      {required && <Text size="sm">Votre rôle exige la double authentification.</Text>}
      {body()}
    </Stack>
  );
}
