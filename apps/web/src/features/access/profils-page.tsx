import { Center, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MESSAGES, TITLES } from '@reformes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { refreshSession } from '../../api/use-session-refresh.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { useCan } from '../../session/use-can.ts';
import { copyRights, grantRights, PROFILES_KEY, profilesQuery, type RoleProfile, type RoleRight, revokeRight } from './access-api.ts';
import { CopyRightsModal, GrantRightsModal } from './profile-modals.tsx';
import { RoleRightsCard } from './role-rights-card.tsx';

const TITLE = 'Rôles & permissions';

/**
 * A change of rights: its toast, then `onDone`, then the cards and the signed-in user's own rights reload (its role
 * may be the one changed).
 */
function useRightsChange<Input>(mutationFn: (input: Input) => Promise<{ message: string }>, onDone?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (response) => {
      onDone?.();
      notifySuccess(response.message, TITLES.profiles);
      await Promise.all([queryClient.invalidateQueries({ queryKey: PROFILES_KEY }), refreshSession()]);
    },
    meta: { errorTitle: TITLES.profiles },
  });
}

/** /admin/profils (spec §2.9): one card per role; every change is shown at once, the signed-in user's rights included. */
export function ProfilsPage() {
  const profiles = useQuery(profilesQuery);
  const [copying, setCopying] = useState<RoleProfile>();
  const [granting, setGranting] = useState<RoleProfile>();
  const [revoking, setRevoking] = useState<RoleRight>();

  const canAdd = useCan('profiles', 'add');
  const canRevoke = useCan('profiles', 'delete');

  const copy = useRightsChange(copyRights, () => setCopying(undefined));
  const grant = useRightsChange(grantRights, () => setGranting(undefined));
  const revoke = useRightsChange((right: RoleRight) => revokeRight(right.id));

  const roles = profiles.data?.roles ?? [];
  return (
    <Stack>
      <Title order={1}>{TITLE}</Title>
      {profiles.error ? (
        <ErrorAlert title={TITLES.profiles} error={profiles.error} />
      ) : profiles.isPending ? (
        <Center py="xl" role="status">
          <Loader size="sm" aria-label={MESSAGES.loading} />
        </Center>
      ) : roles.length === 0 ? (
        <Text c="dimmed">Aucun rôle</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }}>
          {roles.map((role) => (
            <RoleRightsCard
              key={role.id}
              role={role}
              canAdd={canAdd}
              canRevoke={canRevoke}
              onCopy={setCopying}
              onGrant={setGranting}
              onRevoke={setRevoking}
            />
          ))}
        </SimpleGrid>
      )}

      <CopyRightsModal
        role={copying}
        roles={roles}
        saving={copy.isPending}
        onSubmit={(input) => copy.mutate(input)}
        onClose={() => setCopying(undefined)}
      />
      <GrantRightsModal
        role={granting}
        permissions={profiles.data?.permissions ?? []}
        saving={grant.isPending}
        onSubmit={(input) => grant.mutate(input)}
        onClose={() => setGranting(undefined)}
      />
      <ConfirmDialog
        opened={revoking !== undefined}
        title="Retirer un droit"
        question={MESSAGES.revokeQuestion}
        loading={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate(revoking, { onSettled: () => setRevoking(undefined) })}
        onCancel={() => setRevoking(undefined)}
      />
    </Stack>
  );
}
