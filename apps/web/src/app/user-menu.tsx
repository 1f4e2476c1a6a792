import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { MESSAGES } from '@reformes/domain';
import { IconLogout, IconUserCircle, IconUserEdit } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '../session/session.ts';

/** Spec §2.2: a window of 768 px or less counts as mobile. */
export const MOBILE_QUERY = '(max-width: 768px)';

interface UserMenuProps {
  user: CurrentUser | null;
  onEditProfile: () => void;
  onSignOut: () => void;
}

export function UserMenu({ user, onEditProfile, onSignOut }: UserMenuProps) {
  const isMobile = useMediaQuery(MOBILE_QUERY);
  const name = user?.name || MESSAGES.undefinedName;
  return (
    <Menu position="bottom-end" width={240} shadow="md">
      <Menu.Target>
        <UnstyledButton aria-label={`Menu utilisateur : ${name}`}>
          <Group gap="xs" wrap="nowrap">
            <Avatar radius="xl" color="blue" alt="" />
            {!isMobile && (
              <Text size="sm" fw={500}>
                {name}
              </Text>
            )}
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="bright">
            {name}
          </Text>
          <Text size="xs">{user?.email}</Text>
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item leftSection={<IconUserEdit size={16} aria-hidden />} onClick={onEditProfile}>
          Mon profil
        </Menu.Item>
        <Menu.Item component={Link} to="/admin/user-account" leftSection={<IconUserCircle size={16} aria-hidden />}>
          Mon compte
        </Menu.Item>
        <Menu.Item leftSection={<IconLogout size={16} aria-hidden />} color="red" onClick={onSignOut}>
          Déconnexion
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
