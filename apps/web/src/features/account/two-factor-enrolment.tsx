import { Alert, Button, Code, Group, Image, List, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { MESSAGES, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { IconDownload } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { TwoFactorCodeInput, useTwoFactorCode } from '../../components/two-factor-code.tsx';
import { enableTwoFactor, startTwoFactorSetup } from './two-factor-api.ts';

/**
 * Enrolment of the second factor: a new secret as a QR code and as a key to type, confirmed by the first code the
 * app shows; then the 10 recovery codes, shown once, to note or download before going on.
 */
export function TwoFactorEnrolment({ onDone }: { onDone: () => void }) {
  const id = useId();
  const setup = useMutation({ mutationFn: startTwoFactorSetup });
  const code = useTwoFactorCode();
  const confirm = useMutation({
    mutationFn: enableTwoFactor,
    onSuccess: (response) => notifySuccess(response.message, TWO_FACTOR_MESSAGES.title),
    onError: (error) => code.setError(error.message),
  });

  // A new secret each time the enrolment opens: nothing is kept from an abandoned one.
  const { mutate: start } = setup;
  useEffect(() => start(), [start]);

  if (confirm.isSuccess) {
    const codes = confirm.data.data.recovery_codes;
    return (
      <Stack>
        <Alert color="yellow" title="Codes de secours">
          {TWO_FACTOR_MESSAGES.recoveryIntro}
        </Alert>
        <SimpleGrid
          cols={{ base: 2, sm: 5 }}
          component="ul"
          aria-label="Codes de secours"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {codes.map((recovery) => (
            <li key={recovery}>
              <Code fz="md">{recovery}</Code>
            </li>
          ))}
        </SimpleGrid>
        <Group>
          <Button variant="light" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => downloadCodes(codes)}>
            Télécharger les codes
          </Button>
          <Button onClick={onDone}>J'ai conservé mes codes</Button>
        </Group>
      </Stack>
    );
  }
  if (setup.error) return <ErrorAlert title={TWO_FACTOR_MESSAGES.title} error={setup.error} />;
  if (!setup.data) {
    return (
      <Group role="status">
        <Loader size="sm" aria-label={MESSAGES.loading} />
      </Group>
    );
  }
  return (
    <form noValidate onSubmit={code.onSubmit((value) => confirm.mutate(value))}>
      <Stack>
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
        <TwoFactorCodeInput description="Les 6 chiffres affichés par votre application" maw={320} {...code.input} />
        <Group>
          <Button type="submit" loading={confirm.isPending}>
            Activer
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function downloadCodes(codes: string[]) {
  const text = `Réformes : codes de secours de la double authentification (chacun ne sert qu'une fois)\n\n${codes.join('\n')}\n`;
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = 'reformes-codes-de-secours.txt';
  link.click();
  URL.revokeObjectURL(url);
}
