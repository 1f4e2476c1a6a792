import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FieldValues } from 'react-hook-form';
import { createRow, resourceKey } from '../../api/list-api.ts';
import { notifySuccess } from '../notify.tsx';
import { EntityFormModal } from './entity-form-modal.tsx';
import type { ListConfig, ListRow } from './list-config.ts';

interface CreateRowModalProps<Row extends ListRow> {
  opened: boolean;
  /** The list whose "Ajouter" form this is: its resource, form and toast title. */
  config: Pick<ListConfig<Row>, 'routes' | 'errorTitle' | 'form'>;
  onClose: () => void;
}

/**
 * A list's "Ajouter" form opened from another screen ("Ajouter un secteur" on "Liste des réformes"):
 * `POST {resource}`, the server's message as a toast, and the list reloaded wherever it shows.
 */
export function CreateRowModal<Row extends ListRow>({ opened, config, onClose }: CreateRowModalProps<Row>) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (values: FieldValues) => createRow(config.routes, values),
    onSuccess: (response) => {
      notifySuccess(response.message, config.errorTitle);
      onClose();
      return queryClient.invalidateQueries({ queryKey: resourceKey(config.routes) });
    },
    meta: { errorTitle: config.errorTitle },
  });

  return (
    <EntityFormModal<Row>
      opened={opened}
      title={config.form.createTitle}
      schema={config.form.schema}
      fields={config.form.fields}
      submitLabel={config.form.submitLabel}
      saving={save.isPending}
      onSubmit={(values) => save.mutate(values)}
      onClose={onClose}
    />
  );
}
