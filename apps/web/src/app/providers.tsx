import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import '@mantine/notifications/styles.css';
import 'dayjs/locale/fr';
import { createTheme, MantineProvider } from '@mantine/core';
import { DatesProvider } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { mutationErrorsCache } from '../api/mutation-errors.ts';

dayjs.locale('fr');

const theme = createTheme({ primaryColor: 'blue' });

export function createQueryClient(): QueryClient {
  return new QueryClient({
    mutationCache: mutationErrorsCache(),
    defaultOptions: {
      // The client already renews an expired session once; other failures are shown, not retried.
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

interface ProvidersProps {
  queryClient: QueryClient;
  /** 'test' turns Mantine's transitions and portals off, for component tests. */
  env?: 'default' | 'test';
  children: ReactNode;
}

/** Theme, French dates (week starts Monday), toasts top-right for 5 s, modals and server state. */
export function Providers({ queryClient, env, children }: ProvidersProps) {
  return (
    <MantineProvider theme={theme} env={env}>
      <DatesProvider settings={{ locale: 'fr', firstDayOfWeek: 1 }}>
        <QueryClientProvider client={queryClient}>
          <Notifications position="top-right" autoClose={5000} />
          <ModalsProvider labels={{ confirm: 'Oui, continuer', cancel: 'Annuler' }}>{children}</ModalsProvider>
        </QueryClientProvider>
      </DatesProvider>
    </MantineProvider>
  );
}
