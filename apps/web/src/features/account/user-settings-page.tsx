import { Title } from '@mantine/core';

/** /admin/user-settinngs (spelled so): spec §2.7 leaves this page an empty placeholder. */
export function UserSettingsPage() {
  return <Title order={1}>Paramètres utilisateur</Title>;
}
