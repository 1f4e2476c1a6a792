import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { MESSAGES, REFORME_MESSAGES, roleOf, transmitConfirmationOf, WORKFLOW_MESSAGES } from '@reformes/domain';
import {
  IconArrowDown,
  IconArrowRight,
  IconArrowUp,
  IconEdit,
  IconEye,
  IconEyeOff,
  IconListCheck,
  IconLock,
  IconLockOpen,
  IconTarget,
  IconTrash,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { notifyRunning, notifySuccess } from '../../components/notify.tsx';
import { useSession } from '../../session/use-session.ts';
import { OBJECTIFS_KEY } from './objectifs-api.ts';
import { ObjectifsModal } from './objectifs-modal.tsx';
import { ACTION_LABELS, isActionDisabled, type ReformeAction, type ReformeScreen, reformeActionsFor } from './reforme-actions.ts';
import { ReformeDetailModal } from './reforme-detail-modal.tsx';
import { deleteReforme, REFORMES_KEY, type ReformeRow, setReformeActive } from './reformes-api.ts';
import { ResultatModal } from './resultat-modal.tsx';
import { ReturnModal } from './return-modal.tsx';
import { publishReforme, returnReforme, transmitReforme, unpublishReforme } from './workflow-api.ts';

const ICONS: Record<ReformeAction, ReactNode> = {
  view: <IconEye size={18} aria-hidden />,
  edit: <IconEdit size={18} aria-hidden />,
  delete: <IconTrash size={18} aria-hidden />,
  activate: <IconLockOpen size={18} aria-hidden />,
  deactivate: <IconLock size={18} aria-hidden />,
  objectifs: <IconTarget size={18} aria-hidden />,
  resultat: <IconListCheck size={18} aria-hidden />,
  return: <IconArrowDown size={18} aria-hidden />,
  transmit: <IconArrowUp size={18} aria-hidden />,
  publish: <IconArrowRight size={18} aria-hidden />,
  unpublish: <IconEyeOff size={18} aria-hidden />,
};

/** Keyboard users see the names of the icon buttons too. */
const TOOLTIP_EVENTS = { hover: true, focus: true, touch: false };

const COLORS: Partial<Record<ReformeAction, string>> = {
  delete: 'red',
  deactivate: 'orange',
  activate: 'green',
  return: 'orange',
  transmit: 'teal',
  publish: 'green',
  unpublish: 'orange',
};

/** A reform mutation that shows the server's message under `title`, then reloads the reforms and the dashboard. */
function useReformeMutation<Input>(title: string, run: (input: Input) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (response) => {
      notifySuccess(response.message, title);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: REFORMES_KEY }),
        queryClient.invalidateQueries({ queryKey: ['dashboard'] }),
      ]);
    },
    meta: { errorTitle: title },
  });
}

type Dialog = { kind: Exclude<ReformeAction, 'edit' | 'activate' | 'deactivate'>; row: ReformeRow };

/**
 * Everything the reform rows do, on every reform screen: which buttons a row gets (rights and
 * domain rules), the confirmations of spec §4, the mutations and their French outcomes (spec §8).
 */
export function useReformeActions(screen: ReformeScreen) {
  const { user, features } = useSession();
  const role = roleOf(user);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const close = () => setDialog(null);

  const remove = useReformeMutation(REFORME_MESSAGES.errorTitle, (row: ReformeRow) => deleteReforme(row.id));
  const changeState = useReformeMutation(REFORME_MESSAGES.errorTitle, async ({ row, isActive }: { row: ReformeRow; isActive: boolean }) => {
    const done = notifyRunning(MESSAGES.operationRunning);
    try {
      return await setReformeActive(row.id, isActive);
    } finally {
      done();
    }
  });
  const publish = useReformeMutation(WORKFLOW_MESSAGES.publishTitle, (row: ReformeRow) => publishReforme(row.id));
  const unpublish = useReformeMutation(WORKFLOW_MESSAGES.publishTitle, (row: ReformeRow) => unpublishReforme(row.id));
  const transmit = useReformeMutation(WORKFLOW_MESSAGES.transmissionErrorTitle, (row: ReformeRow) => transmitReforme(row.id));
  const sendBack = useReformeMutation(
    WORKFLOW_MESSAGES.transmissionErrorTitle,
    ({ row, instruction }: { row: ReformeRow; instruction: string }) => returnReforme(row.id, instruction),
  );

  const run = (action: ReformeAction, row: ReformeRow) => {
    switch (action) {
      case 'edit':
        navigate(`/admin/edit-reforme/${row.id}`);
        return;
      case 'activate':
      case 'deactivate':
        changeState.mutate({ row, isActive: action === 'activate' });
        return;
      default:
        setDialog({ kind: action, row });
    }
  };

  const actionsOf = (row: ReformeRow) => reformeActionsFor(row, role, features, screen);

  /** The row's icon buttons, each named for assistive technologies and with a tooltip. */
  const renderActions = (row: ReformeRow) => (
    <Group gap={4} wrap="nowrap">
      {actionsOf(row).map((action) => (
        <Tooltip key={action} label={ACTION_LABELS[action]} withArrow events={TOOLTIP_EVENTS}>
          <ActionIcon
            variant="subtle"
            color={COLORS[action]}
            aria-label={ACTION_LABELS[action]}
            disabled={isActionDisabled(screen, action) || ((action === 'activate' || action === 'deactivate') && changeState.isPending)}
            onClick={(event) => {
              event.stopPropagation();
              run(action, row);
            }}
          >
            {ICONS[action]}
          </ActionIcon>
        </Tooltip>
      ))}
    </Group>
  );

  const opened = (kind: Dialog['kind']) => (dialog?.kind === kind ? dialog.row : undefined);
  const confirmed = (mutation: { mutate: (row: ReformeRow, options: { onSettled: () => void }) => void }) => () => {
    if (dialog) mutation.mutate(dialog.row, { onSettled: close });
  };

  const dialogs = (
    <>
      <ReformeDetailModal reformeId={opened('view')?.id} inValidationList={screen === 'treatment'} onClose={close} />
      <ConfirmDialog opened={!!opened('delete')} loading={remove.isPending} onConfirm={confirmed(remove)} onCancel={close} />
      <ConfirmDialog
        opened={!!opened('publish')}
        title={WORKFLOW_MESSAGES.publishTitle}
        question={WORKFLOW_MESSAGES.confirmPublish}
        loading={publish.isPending}
        onConfirm={confirmed(publish)}
        onCancel={close}
      />
      <ConfirmDialog
        opened={!!opened('unpublish')}
        title={WORKFLOW_MESSAGES.publishTitle}
        question={WORKFLOW_MESSAGES.confirmUnpublish}
        loading={unpublish.isPending}
        onConfirm={confirmed(unpublish)}
        onCancel={close}
      />
      <ConfirmDialog
        opened={!!opened('transmit')}
        {...transmitConfirmationOf(role)}
        loading={transmit.isPending}
        onConfirm={confirmed(transmit)}
        onCancel={close}
      />
      <ReturnModal
        reforme={opened('return')}
        saving={sendBack.isPending}
        onSubmit={(instruction) => dialog && sendBack.mutate({ row: dialog.row, instruction }, { onSuccess: close })}
        onClose={close}
      />
      <ObjectifsModal
        reforme={opened('objectifs')}
        onClose={() => {
          close();
          void queryClient.invalidateQueries({ queryKey: OBJECTIFS_KEY });
        }}
      />
      <ResultatModal reforme={opened('resultat')} onClose={close} />
    </>
  );

  return { actionsOf, renderActions, dialogs, role, features };
}
