import { Alert, Fieldset, SimpleGrid, Stack, TextInput } from '@mantine/core';
import {
  COVERS_ROUTES,
  ETAT_OPTIONS,
  NATURES_ROUTES,
  periodText,
  REFORME_MESSAGES,
  STRUCTURES_ROUTES,
  TYPE_OPTIONS,
} from '@reformes/domain';
import { IconAlertTriangle, IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { ApiError } from '../../api/api-error.ts';
import { FormButtons } from '../../components/form-buttons.tsx';
import { LongTextField } from '../../components/long-text-field.tsx';
import { notifyError } from '../../components/notify.tsx';
import { AmountInput } from './amount-input.tsx';
import { ReformeFilesField } from './reforme-files-field.tsx';
import { ChoiceField, DateField, LookupField } from './reforme-form-fields.tsx';
import {
  type FieldName,
  formValuesOf,
  isDateOrderWrong,
  isIsoDate,
  limitOf,
  type ReformeFormValues,
  reformeResolver,
} from './reforme-form-values.ts';
import type { ReformeDetail, ReformeFileRef, ReformePayload } from './reformes-api.ts';

/** Section titles read as headings, not as field labels. */
const LEGEND_STYLES = { legend: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } };

/** The free texts that close "Informations Générales". */
const OPTIONAL_TEXTS = [
  ['difficult', 'Difficultés'],
  ['solution', 'Solutions'],
  ['perspective', 'Perspectives'],
] as const satisfies readonly (readonly [FieldName, string])[];

interface ReformeFormProps {
  role: string | undefined;
  /** The reform being changed; a blank form when absent. */
  reforme?: ReformeDetail;
  /** Spec §6: only saisie central chooses the structure. */
  withStructure: boolean;
  saving: boolean;
  /** Why the reform may not be changed now (the domain's change rule); the form is read-only when set. */
  locked?: string;
  /** Receives the schema's output (ids and amounts as numbers) and the pending uploads' ids. */
  onSubmit: (payload: ReformePayload) => Promise<void>;
  onCancel: () => void;
}

/** Spec §2.10 "Create reform" / "Update reform": every field of the reform in four sections. */
export function ReformeForm({ role, reforme, withStructure, saving, locked, onSubmit, onCancel }: ReformeFormProps) {
  const {
    register,
    control,
    handleSubmit,
    setError,
    getValues,
    formState: { errors, touchedFields, isSubmitted },
  } = useForm<ReformeFormValues>({
    resolver: reformeResolver(withStructure ? role : undefined),
    // Spec §5: a message shows once its field is touched or changed (and for every field on submit).
    mode: 'all',
    defaultValues: formValuesOf(reforme),
  });
  const [dateDebut, dateFin] = useWatch({ control, name: ['date_debut', 'date_fin'] });
  const period = isIsoDate(dateDebut) && isIsoDate(dateFin) ? periodText(dateDebut, dateFin) : '';
  const isUpdate = reforme !== undefined;
  // Uploads of this visit: attached to the reform by the save (`files: [ids]`).
  const [pending, setPending] = useState<ReformeFileRef[]>([]);

  const submit = handleSubmit(
    async (values) => {
      try {
        await onSubmit({ ...(values as unknown as ReformePayload), periodexe: period, files: pending.map((file) => file.id) });
      } catch (error) {
        // The server's field messages go under their fields too.
        if (error instanceof ApiError && error.errorsList) {
          for (const [field, messages] of Object.entries(error.errorsList)) {
            if (field in getValues()) setError(field as FieldName, { type: 'server', message: messages[0] });
          }
        }
      }
    },
    () => {
      if (isDateOrderWrong(getValues())) notifyError(REFORME_MESSAGES.dateOrder, REFORME_MESSAGES.dateTitle);
    },
  );

  const message = (field: FieldName) => errors[field]?.message;
  // The period cannot be changed, only left: its message shows once it was, or on submit (spec §5).
  const periodMessage = touchedFields.periodexe || isSubmitted ? message('periodexe') : undefined;

  return (
    <form noValidate onSubmit={submit} aria-label={isUpdate ? 'Modifier la réforme' : 'Enregistrer une réforme'}>
      <Stack>
        {locked && (
          <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />}>
            {locked}
          </Alert>
        )}
        <Fieldset styles={LEGEND_STYLES} legend="Informations Générales" disabled={!!locked}>
          <Stack>
            <TextInput
              label="Libellé de la réforme"
              withAsterisk
              maxLength={limitOf('libref')}
              error={message('libref')}
              {...register('libref')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <ChoiceField
                control={control}
                name="typeref"
                label="Type de réforme (portée)"
                data={TYPE_OPTIONS}
                error={message('typeref')}
                required
              />
              <LookupField
                control={control}
                name="nature_id"
                label="Nature"
                source={NATURES_ROUTES}
                optionLabel={(row) => String(row.libnature)}
                error={message('nature_id')}
              />
              <LookupField
                control={control}
                name="couverture_id"
                label="Couverture"
                source={COVERS_ROUTES}
                optionLabel={(row) => String(row.lib_couvert)}
                error={message('couverture_id')}
              />
              <TextInput
                label="Population cible"
                withAsterisk
                maxLength={limitOf('popul_cible')}
                error={message('popul_cible')}
                {...register('popul_cible')}
              />
            </SimpleGrid>
            <LongTextField
              control={control}
              name="objectif_glob"
              maxLength={limitOf('objectif_glob')}
              label="Objectif global"
              withAsterisk
              error={message('objectif_glob')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label="Cadre institutionnel"
                maxLength={limitOf('cadreinst_mor')}
                error={message('cadreinst_mor')}
                {...register('cadreinst_mor')}
              />
              <ChoiceField
                control={control}
                name="etat_mor"
                label="Etat de mise en œuvre"
                data={ETAT_OPTIONS}
                error={message('etat_mor')}
              />
              <Controller
                name="montant_prevu"
                control={control}
                render={({ field }) => (
                  <AmountInput label="Montant prévu (EUR)" placeholder="0,00" error={message('montant_prevu')} {...field} />
                )}
              />
              <Controller
                name="montant_trealise"
                control={control}
                render={({ field }) => (
                  <AmountInput label="Montant réalisé (EUR)" placeholder="0,00" error={message('montant_trealise')} {...field} />
                )}
              />
            </SimpleGrid>
            {OPTIONAL_TEXTS.map(([name, label]) => (
              <LongTextField key={name} control={control} name={name} maxLength={limitOf(name)} label={label} error={message(name)} />
            ))}
          </Stack>
        </Fieldset>

        <Fieldset styles={LEGEND_STYLES} legend="Structure et période" disabled={!!locked}>
          <Stack>
            <LongTextField
              control={control}
              name="struct_impl"
              maxLength={limitOf('struct_impl')}
              label="Structures impliquées"
              withAsterisk
              error={message('struct_impl')}
            />
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <DateField control={control} name="date_debut" label="Date de début" error={message('date_debut')} />
              <DateField control={control} name="date_fin" label="Date de fin" error={message('date_fin')} />
              <Controller
                name="periodexe"
                control={control}
                render={({ field }) => (
                  <TextInput
                    label="Période d'exécution"
                    withAsterisk
                    value={period}
                    readOnly
                    variant="filled"
                    placeholder="Du jj/mm/aaaa au jj/mm/aaaa"
                    error={periodMessage}
                    name={field.name}
                    onBlur={field.onBlur}
                    ref={field.ref}
                  />
                )}
              />
            </SimpleGrid>
          </Stack>
        </Fieldset>

        {withStructure && (
          // Spec §2.10 spells the create screen's legend "Struture en charge".
          <Fieldset styles={LEGEND_STYLES} legend={isUpdate ? 'Structure en charge' : 'Struture en charge'} disabled={!!locked}>
            <LookupField
              control={control}
              name="structure_id"
              label="Structure"
              source={STRUCTURES_ROUTES}
              optionLabel={(row) => `${row.designation} (${row.sigl})`}
              error={message('structure_id')}
            />
          </Fieldset>
        )}

        <Fieldset styles={LEGEND_STYLES} legend="Documentation" disabled={!!locked}>
          <ReformeFilesField existing={reforme?.files ?? []} pending={pending} onPendingChange={setPending} disabled={!!locked} />
        </Fieldset>

        <FormButtons
          onCancel={onCancel}
          submitLabel="Enregistrer"
          saving={saving}
          canSubmit={!locked}
          submitProps={{ leftSection: <IconDeviceFloppy size={16} aria-hidden /> }}
          mt={0}
        />
      </Stack>
    </form>
  );
}
