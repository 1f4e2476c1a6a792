import { Center, Paper, Stack, Title } from '@mantine/core';
import { type PageHead, pageTitle } from '@reformes/domain';
import type { ReactNode } from 'react';
import { usePageHead } from '../../components/use-page-head.ts';

interface AuthCardProps {
  title: string;
  /** The tab's title and meta description; by default the card's title. */
  head?: Partial<PageHead>;
  children: ReactNode;
}

/** The centred card every sign-in and password screen sits in. */
export function AuthCard({ title, head, children }: AuthCardProps) {
  usePageHead({ title: head?.title ?? pageTitle(title), description: head?.description });
  return (
    <Center component="main" mih="100vh" p="md" bg="gray.0">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={420}>
        <Stack>
          <Title order={1} size="h2" ta="center">
            {title}
          </Title>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
