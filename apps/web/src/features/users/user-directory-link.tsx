import { Button, Stack } from '@mantine/core';
import { DIRECTORY_MESSAGES, DIRECTORY_ROUTES, USERS_ROUTES } from '@reformes/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { call } from '../../api/call.ts';
import { resourceKey } from '../../api/list-api.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DirectoryLinkText } from '../../components/directory-link-text.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import type { CurrentUser } from '../../session/session.ts';
import { useCan } from '../../session/use-can.ts';

/**
 * A user's directory identity in « Consulter » (issue 42), and for an admin who may edit users, « Supprimer le lien
 * avec l'annuaire » behind a confirmation: the identity no longer reaches this account.
 */
export function UserDirectoryLink({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const canEdit = useCan('users', 'edit');
  const [link, setLink] = useState(user.directory_link);
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => call(DIRECTORY_ROUTES.adminUnlink, { params: { id: user.id } }),
    onSuccess: async (response) => {
      setLink(null);
      setConfirming(false);
      notifySuccess(response.message, DIRECTORY_MESSAGES.sectionTitle);
      await queryClient.invalidateQueries({ queryKey: resourceKey(USERS_ROUTES) });
    },
    onError: () => setConfirming(false),
    meta: { errorTitle: DIRECTORY_MESSAGES.sectionTitle },
  });
  return (
    <Stack gap="xs" align="flex-start">
      <DirectoryLinkText link={link} />
      {link && canEdit && (
        <Button size="xs" color="red" variant="light" onClick={() => setConfirming(true)}>
          {DIRECTORY_MESSAGES.adminUnlinkButton}
        </Button>
      )}
      <ConfirmDialog
        opened={confirming}
        title={DIRECTORY_MESSAGES.adminUnlinkButton}
        question={`${DIRECTORY_MESSAGES.unlinkConfirm} (${user.email})`}
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}
