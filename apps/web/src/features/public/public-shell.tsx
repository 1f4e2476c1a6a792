import { Anchor, Box, Button, Container, Group, Text } from '@mantine/core';
import { PUBLIC_MESSAGES } from '@reformes/domain';
import { IconLogin } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** The frame of the public pages: a header with the way in to the back-office, then the page in <main>. */
export function PublicShell({ children }: { children: ReactNode }) {
  return (
    <>
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="xl">
          <Group justify="space-between">
            <Anchor component={Link} to="/accueil" underline="never" c="inherit">
              <Text fw={700} size="lg">
                Réformes
              </Text>
            </Anchor>
            <Button component={Link} to="/login" variant="light" leftSection={<IconLogin size={16} aria-hidden />}>
              {PUBLIC_MESSAGES.signIn}
            </Button>
          </Group>
        </Container>
      </Box>
      <Container component="main" size="xl" py="lg">
        {children}
      </Container>
    </>
  );
}
