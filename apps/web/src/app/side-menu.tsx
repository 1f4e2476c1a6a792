import { NavLink } from '@mantine/core';
import { type MenuEntry, menuOf } from '@reformes/domain';
import { useState } from 'react';
import { NavLink as RouterNavLink, useLocation } from 'react-router';

interface SideMenuProps {
  /** The user's role (spec §6): it picks the entries of spec §2.3; an unknown role gets none. */
  role: string | undefined;
  /** Called after following a link (the layout closes the menu on small screens). */
  onNavigate?: () => void;
}

export function SideMenu({ role, onNavigate }: SideMenuProps) {
  return (
    <>
      {menuOf(role).map((entry) => (
        <SideMenuEntry key={entry.name} entry={entry} onNavigate={onNavigate} />
      ))}
    </>
  );
}

interface SideMenuEntryProps {
  entry: MenuEntry;
  onNavigate?: () => void;
}

function SideMenuEntry({ entry, onNavigate }: SideMenuEntryProps) {
  const { pathname } = useLocation();
  if (entry.children) return <SideMenuGroup entry={entry} onNavigate={onNavigate} />;
  return (
    <NavLink
      component={RouterNavLink}
      to={entry.route ?? '/'}
      label={entry.name}
      active={entry.route !== undefined && pathname.startsWith(entry.route)}
      onClick={onNavigate}
    />
  );
}

function SideMenuGroup({ entry, onNavigate }: SideMenuEntryProps) {
  const [opened, setOpened] = useState(true);
  return (
    <NavLink
      component="button"
      type="button"
      label={entry.name}
      opened={opened}
      onChange={setOpened}
      aria-expanded={opened}
      childrenOffset="md"
    >
      {entry.children?.map((child) => (
        <SideMenuEntry key={child.name} entry={child} onNavigate={onNavigate} />
      ))}
    </NavLink>
  );
}
