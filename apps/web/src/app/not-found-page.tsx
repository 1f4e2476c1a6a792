import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { MESSAGES } from '@reformes/domain';
import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <Center mih="60vh" p="md">
      <Stack align="center">
        <Title order={1}>404</Title>
        <Text ta="center">{MESSAGES.notFoundPage}</Text>
        <Anchor component={Link} to="/">
          Retour à l'accueil
        </Anchor>
      </Stack>
    </Center>
  );
}
