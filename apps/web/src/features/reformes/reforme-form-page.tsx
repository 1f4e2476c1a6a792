import { Center, Loader, Stack, Title } from '@mantine/core';
import { type ChangeVerdict, choosesStructure, MESSAGES, REFORME_MESSAGES, reformeChangeOf, roleOf } from '@reformes/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { useSession } from '../../session/use-session.ts';
import { ReformeForm } from './reforme-form.tsx';
import { createReforme, REFORMES_KEY, type ReformePayload, reformeQuery, updateReforme } from './reformes-api.ts';

/** Where both forms go once saved (spec §2.10). */
export const AFTER_SAVE = '/admin/treatment-reformes';

function useSaveReforme(id: number | undefined) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (payload: ReformePayload) => (id === undefined ? createReforme(payload) : updateReforme(id, payload)),
    onSuccess: async (response) => {
      notifySuccess(response.message, REFORME_MESSAGES.errorTitle);
      await queryClient.invalidateQueries({ queryKey: REFORMES_KEY });
      navigate(AFTER_SAVE);
    },
    meta: { errorTitle: REFORME_MESSAGES.errorTitle },
  });
}

/** /admin/create-reforme */
const lockReason = (verdict: ChangeVerdict) => (verdict.allowed ? undefined : verdict.message);

export function CreateReformePage() {
  const { user } = useSession();
  const role = roleOf(user);
  const save = useSaveReforme(undefined);
  const navigate = useNavigate();
  return (
    <Stack>
      <Title order={1}>Nouvelle réforme</Title>
      <ReformeForm
        role={role}
        withStructure={choosesStructure(role)}
        saving={save.isPending}
        onSubmit={async (payload) => {
          await save.mutateAsync(payload);
        }}
        onCancel={() => navigate(-1)}
      />
    </Stack>
  );
}

/** /admin/edit-reforme/{id} */
export function EditReformePage() {
  const { id } = useParams();
  const reformeId = Number(id);
  const { user } = useSession();
  const role = roleOf(user);
  const reforme = useQuery({ ...reformeQuery(reformeId), enabled: Number.isInteger(reformeId) && reformeId > 0 });
  const save = useSaveReforme(reformeId);
  const navigate = useNavigate();

  return (
    <Stack>
      <Title order={1}>Modifier la réforme</Title>
      {reforme.isPending && (
        <Center py="xl" role="status">
          <Loader aria-label={MESSAGES.loading} />
        </Center>
      )}
      {reforme.isError && <ErrorAlert title={REFORME_MESSAGES.errorTitle} error={reforme.error} />}
      {reforme.data && (
        <ReformeForm
          key={reforme.data.id}
          role={role}
          reforme={reforme.data}
          withStructure={choosesStructure(role)}
          locked={lockReason(reformeChangeOf(reforme.data, 'edit', role))}
          saving={save.isPending}
          onSubmit={async (payload) => {
            await save.mutateAsync(payload);
          }}
          onCancel={() => navigate(-1)}
        />
      )}
    </Stack>
  );
}
