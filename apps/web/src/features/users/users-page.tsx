import { TWO_FACTOR_MESSAGES, TWO_FACTOR_ROUTES } from '@reformes/domain';
import { IconKey, IconShieldOff } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api/call.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ListPage } from '../../components/list-page/list-page.tsx';
import { notifySuccess, notifyWarning } from '../../components/notify.tsx';
import { ResetPasswordModal } from './reset-password-modal.tsx';
import { type UserRow, usersList } from './users-list.tsx';

const RESET_TWO_FACTOR = 'Réinitialiser la double authentification';

/**
 * /admin/users: the generic list plus "Réinitialiser le mot de passe" (spec §2.8) and, for an account that lost its
 * authenticator, "Réinitialiser la double authentification" (issue 18; audited, its sessions end).
 */
export function UsersPage() {
  const [resetting, setResetting] = useState<UserRow>();
  const [resettingTwoFactor, setResettingTwoFactor] = useState<UserRow>();
  const resetTwoFactor = useMutation({
    mutationFn: (row: UserRow) => call(TWO_FACTOR_ROUTES.reset, { params: { id: row.id } }),
    onSuccess: (response) => {
      notifySuccess(response.message, RESET_TWO_FACTOR);
      setResettingTwoFactor(undefined);
    },
    onError: () => setResettingTwoFactor(undefined),
    meta: { errorTitle: RESET_TWO_FACTOR },
  });
  return (
    <ListPage
      config={usersList}
      extraActions={[
        { label: 'Réinitialiser le mot de passe', action: 'edit', icon: <IconKey size={16} aria-hidden />, onClick: setResetting },
        {
          label: RESET_TWO_FACTOR,
          action: 'edit',
          icon: <IconShieldOff size={16} aria-hidden />,
          onClick: (row) =>
            row.two_factor.enabled ? setResettingTwoFactor(row) : notifyWarning(TWO_FACTOR_MESSAGES.notEnabled, RESET_TWO_FACTOR),
        },
      ]}
    >
      <ResetPasswordModal user={resetting} onClose={() => setResetting(undefined)} />
      <ConfirmDialog
        opened={resettingTwoFactor !== undefined}
        title={RESET_TWO_FACTOR}
        question={`Réinitialiser la double authentification de ${resettingTwoFactor?.email ?? ''} ? Ses sessions seront fermées ; il pourra l'activer de nouveau (il le devra si son rôle l'exige).`}
        loading={resetTwoFactor.isPending}
        onConfirm={() => resettingTwoFactor && resetTwoFactor.mutate(resettingTwoFactor)}
        onCancel={() => setResettingTwoFactor(undefined)}
      />
    </ListPage>
  );
}
