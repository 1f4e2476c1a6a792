import { Paper, Stack, Tabs, Text, Title } from '@mantine/core';
import { ACCOUNT_MESSAGES, DIRECTORY_MESSAGES, REMINDER_MESSAGES, versionText } from '@reformes/domain';
import { IconBell, IconBuildingBank, IconLock, IconShieldLock, IconSignature, IconUser } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useSession } from '../../session/use-session.ts';
import { AccountInfoForm } from './account-info-form.tsx';
import { signInOptionsQuery } from './directory-api.ts';
import { DirectoryTab } from './directory-tab.tsx';
import { PasswordForm } from './password-form.tsx';
import { ReminderPreferences } from './reminder-preferences.tsx';
import { SignatureTab } from './signature-tab.tsx';
import { TwoFactorTab } from './two-factor-tab.tsx';

const TABS = ['info', 'password', 'two-factor', 'reminders', 'signature', 'directory'];

/** /admin/user-account, "Mon compte" (spec §2.7); `?tab=directory` opens a tab (the directory's dance comes back there). */
export function AccountPage() {
  const { user } = useSession();
  const [search] = useSearchParams();
  const options = useQuery(signInOptionsQuery());
  if (!user) return null;
  const asked = search.get('tab') ?? '';
  const showsDirectory = Boolean(options.data?.data.directory) || user.directory_link !== null;
  return (
    <Stack>
      <div>
        <Title order={1}>{ACCOUNT_MESSAGES.title}</Title>
        <Text c="dimmed">{ACCOUNT_MESSAGES.subtitle}</Text>
      </div>
      <Paper withBorder p="md">
        <Tabs defaultValue={TABS.includes(asked) ? asked : 'info'}>
          <Tabs.List>
            <Tabs.Tab value="info" leftSection={<IconUser size={16} aria-hidden />}>
              Information personnelle
            </Tabs.Tab>
            <Tabs.Tab value="password" leftSection={<IconLock size={16} aria-hidden />}>
              Mot de passe
            </Tabs.Tab>
            <Tabs.Tab value="two-factor" leftSection={<IconShieldLock size={16} aria-hidden />}>
              Double authentification
            </Tabs.Tab>
            <Tabs.Tab value="reminders" leftSection={<IconBell size={16} aria-hidden />}>
              {REMINDER_MESSAGES.accountTab}
            </Tabs.Tab>
            {user.is_signer && (
              <Tabs.Tab value="signature" leftSection={<IconSignature size={16} aria-hidden />}>
                Signature
              </Tabs.Tab>
            )}
            {showsDirectory && (
              <Tabs.Tab value="directory" leftSection={<IconBuildingBank size={16} aria-hidden />}>
                {DIRECTORY_MESSAGES.sectionTitle}
              </Tabs.Tab>
            )}
          </Tabs.List>
          <Tabs.Panel value="info" pt="md">
            <AccountInfoForm user={user} />
          </Tabs.Panel>
          <Tabs.Panel value="password" pt="md">
            <PasswordForm />
          </Tabs.Panel>
          <Tabs.Panel value="two-factor" pt="md">
            <TwoFactorTab />
          </Tabs.Panel>
          <Tabs.Panel value="reminders" pt="md">
            <ReminderPreferences />
          </Tabs.Panel>
          {user.is_signer && (
            <Tabs.Panel value="signature" pt="md">
              <SignatureTab user={user} />
            </Tabs.Panel>
          )}
          {showsDirectory && (
            <Tabs.Panel value="directory" pt="md">
              <DirectoryTab user={user} />
            </Tabs.Panel>
          )}
        </Tabs>
      </Paper>
      <Text component="footer" size="xs" c="dimmed" ta="center">
        {versionText()}
      </Text>
    </Stack>
  );
}
