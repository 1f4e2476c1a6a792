import { Anchor, Center, Stack, Text, Title } from '@mantine/core';
import { MESSAGES, pageTitle } from '@reformes/domain';
import { Link } from 'react-router';
import { usePageHead } from '../components/use-page-head.ts';

export function NotFoundPage() {
  usePageHead({ title: pageTitle(MESSAGES.notFoundTitle) });
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
