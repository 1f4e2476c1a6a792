import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { ResetPasswordModal } from './reset-password-modal.tsx';
import { type UserRow, usersList } from './users-list.tsx';

/** /admin/users: the generic list plus "Réinitialiser le mot de passe" (spec §2.8). */
export function UsersPage() {
  const [resetting, setResetting] = useState<UserRow>();
  return (
    <ListPage
      config={usersList}
      extraActions={[
        { label: 'Réinitialiser le mot de passe', action: 'edit', icon: <IconKey size={16} aria-hidden />, onClick: setResetting },
      ]}
    >
      <ResetPasswordModal user={resetting} onClose={() => setResetting(undefined)} />
    </ListPage>
  );
}
