import { Button } from '@mantine/core';
import { MESSAGES, REFORME_MESSAGES } from '@reformes/domain';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { notifyRunning, notifySuccess } from '../../components/notify.tsx';
import { useCan } from '../../session/use-can.ts';
import { setActive, useReloadObjectifs } from './objectifs-api.ts';

type StateResource = 'objectifs' | 'resultats';

/**
 * Activer/Désactiver of an objective or an expected result (spec §4), for holders of the `status`
 * right only: `can` says whether to offer it, `mutate({ id, isActive })` runs it under "Opération en cours".
 */
export function useStateChange(resource: StateResource) {
  const can = useCan(resource, 'status');
  const reload = useReloadObjectifs();
  const change = useMutation({
    mutationFn: async ({ id, isActive }: { id: number; isActive: boolean }) => {
      const done = notifyRunning(MESSAGES.operationRunning);
      try {
        return await setActive(resource, id, isActive);
      } finally {
        done();
      }
    },
    onSuccess: (response) => {
      notifySuccess(response.message, REFORME_MESSAGES.objectifsTitle);
      return reload();
    },
    meta: { errorTitle: REFORME_MESSAGES.objectifsTitle },
  });
  return { can, change };
}

interface StateButtonProps {
  isActive: boolean;
  disabled?: boolean;
  onClick: () => void;
}

/** "Désactiver" for an active row, "Activer" for a deactivated one: the row's state says which. */
export function StateButton({ isActive, disabled, onClick }: StateButtonProps) {
  return (
    <Button
      size="compact-xs"
      variant="light"
      color={isActive ? 'orange' : 'green'}
      leftSection={isActive ? <IconLock size={14} aria-hidden /> : <IconLockOpen size={14} aria-hidden />}
      disabled={disabled}
      onClick={onClick}
    >
      {isActive ? 'Désactiver' : 'Activer'}
    </Button>
  );
}
