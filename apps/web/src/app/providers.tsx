import {
  type CSSVariablesResolver,
  createTheme,
  darken,
  defaultVariantColorsResolver,
  MantineProvider,
  Modal,
  Notification,
  parseThemeColor,
  type VariantColorsResolver,
} from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { mutationErrorsCache } from '../components/mutation-errors.ts';
import { Toasts } from '../components/notify.tsx';

/**
 * Text on tinted backgrounds (light, outline and subtle variants: badges, secondary buttons) in the darkest shade,
 * darkened again: Mantine's default shade 6 reads at about 3:1, below WCAG AA's 4.5:1 (axe, issue 16).
 */
const readableVariants: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (!['light', 'outline', 'subtle'].includes(input.variant)) return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor || !(parsed.color in input.theme.colors)) return colors;
  const text = darken(input.theme.colors[parsed.color][9], 0.3);
  return { ...colors, color: text, hoverColor: text };
};

// Filled buttons and links in shade 8 (white on it reads at 4.9:1), dimmed text in gray 7 (7:1 on white).
// Toasts: Mantine draws a titled toast's text in gray 6 (3.3:1) and leaves its close button without a name.
// Modals hold forms: a stray click or Escape must not throw the typing away, so only their buttons close them.
const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 8,
  variantColorResolver: readableVariants,
  components: {
    Modal: Modal.extend({
      defaultProps: {
        size: 'lg',
        closeOnClickOutside: false,
        closeOnEscape: false,
        closeButtonProps: { 'aria-label': 'Fermer' },
      },
    }),
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Fermer la notification' } },
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
    }),
  },
});
const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  // Placeholders in gray 5 read at 2.6:1; #6c757d reads at 4.7:1 and still looks unlike a value (axe, issue 17's file picker).
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-placeholder': '#6c757d' },
  dark: {},
});

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

/**
 * Theme, toasts and server state: what every screen needs, the public ones included. What only some screens use
 * loads with them: the date picker's French settings (french-date-input.tsx), the toasts' container (notify.tsx).
 */
export function Providers({ queryClient, env, children }: ProvidersProps) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables} env={env}>
      <QueryClientProvider client={queryClient}>
        <Toasts />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
