import { Alert, Stack, Title } from '@mantine/core';
import { pageTitle, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { useNavigate } from 'react-router';
import { usePageHead } from '../../components/use-page-head.ts';
import { TwoFactorEnrolment } from './two-factor-enrolment.tsx';
import { reloadCurrentUser } from './two-factor-tab.tsx';

/**
 * /auth/two-factor-setup: where a user whose role demands a second factor lands right after signing in, before any
 * other screen (the server refuses every other route meanwhile).
 */
export function TwoFactorSetupPage() {
  const navigate = useNavigate();
  usePageHead({ title: pageTitle(TWO_FACTOR_MESSAGES.title) });
  return (
    <Stack maw={760} mx="auto" p="md">
      <Title order={1}>{TWO_FACTOR_MESSAGES.title}</Title>
      <Alert color="blue">{TWO_FACTOR_MESSAGES.required}</Alert>
      <TwoFactorEnrolment
        onDone={async () => {
          await reloadCurrentUser();
          navigate('/admin/dashboard', { replace: true });
        }}
      />
    </Stack>
  );
}
