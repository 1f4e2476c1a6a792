import { Center, Loader, Stack, Text } from '@mantine/core';
import { MESSAGES } from '@reformes/domain';

/** "Chargement..." while a screen or the signed-in user is not ready yet (spec §2.4). */
export function LoadingScreen() {
  return (
    <Center mih="50vh" role="status">
      <Stack align="center" gap="xs">
        <Loader aria-hidden />
        <Text>{MESSAGES.loading}</Text>
      </Stack>
    </Center>
  );
}
