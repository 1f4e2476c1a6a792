import { Button, Group, Stack, Text } from '@mantine/core';
import { DIRECTORY_MESSAGES } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { DirectoryLinkText } from '../../components/directory-link-text.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { leavePage } from '../../session/leave-page.ts';
import type { CurrentUser } from '../../session/session.ts';
import { storeUser } from '../../session/session.ts';
import { startLink, unlinkOwn } from './directory-api.ts';

/**
 * « Mon compte » > « Annuaire » (issue 42): link the account to one's directory identity (the provider's sign-in, then
 * back here), or remove the link while a password remains to sign in with.
 */
export function DirectoryTab({ user }: { user: CurrentUser }) {
  const [confirming, setConfirming] = useState(false);
  const link = useMutation({
    mutationFn: startLink,
    // The browser leaves for the provider: the button keeps its spinner until the page goes.
    onSuccess: (response) => leavePage.to(response.data.authorization_url),
    meta: { errorTitle: DIRECTORY_MESSAGES.sectionTitle },
  });
  const unlink = useMutation({
    mutationFn: unlinkOwn,
    onSuccess: (response) => {
      storeUser(response.data);
      setConfirming(false);
      notifySuccess(response.message, DIRECTORY_MESSAGES.sectionTitle);
    },
    onError: () => setConfirming(false),
    meta: { errorTitle: DIRECTORY_MESSAGES.sectionTitle },
  });
  const linked = user.directory_link !== null;
  return (
    <Stack>
      <DirectoryLinkText link={user.directory_link} />
      {!linked && (
        <Group>
          <Button onClick={() => link.mutate()} loading={link.isPending || link.isSuccess}>
            {DIRECTORY_MESSAGES.linkButton}
          </Button>
        </Group>
      )}
      {linked && (
        <>
          {!user.has_password && <Text size="sm">{DIRECTORY_MESSAGES.unlinkNeedsPassword}</Text>}
          <Group>
            <Button color="red" variant="light" disabled={!user.has_password} onClick={() => setConfirming(true)}>
              {DIRECTORY_MESSAGES.unlinkButton}
            </Button>
          </Group>
        </>
      )}
      <ConfirmDialog
        opened={confirming}
        title={DIRECTORY_MESSAGES.unlinkButton}
        question={DIRECTORY_MESSAGES.unlinkConfirm}
        loading={unlink.isPending}
        onConfirm={() => unlink.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}
