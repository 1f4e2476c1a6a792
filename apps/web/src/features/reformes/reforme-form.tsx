import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Fieldset, Group, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import {
  choosesStructure,
  ETAT_OPTIONS,
  isStartAfterEnd,
  periodText,
  REFORME_MESSAGES,
  reformeSchema,
  reformeSchemaFor,
  TYPE_OPTIONS,
  textLimitOf,
} from '@reformes/domain';
import { IconAlertTriangle, IconDeviceFloppy } from '@tabler/icons-react';
import { useState } from 'react';
import { type Control, Controller, type FieldErrors, type Resolver, useForm, useWatch } from 'react-hook-form';
import { ApiError } from '../../api/api-error.ts';
import { FrenchDateInput, parseFrenchDate } from '../../components/french-date-input.tsx';
import { formatEuro } from '../../components/french-format.ts';
import { LongTextField } from '../../components/long-text-field.tsx';
import { notifyError } from '../../components/notify.tsx';
import { type LookupRow, useLookup } from '../../components/use-lookup.ts';
import { AmountInput } from './amount-input.tsx';
import { ReformeFilesField } from './reforme-files-field.tsx';
import type { ReformeDetail, ReformeFile, ReformePayload } from './reformes-api.ts';

/** The form's values: text as typed, ids as select values, dates as ISO yyyy-mm-dd ('' when empty). */
export interface ReformeFormValues {
  libref: string;
  typeref: string;
  nature_id: string;
  objectif_glob: string;
  popul_cible: string;
  couverture_id: string;
  struct_impl: string;
  date_debut: string;
  date_fin: string;
  /** Read-only: the period text of the two dates; only here so that its required message has a field. */
  periodexe: string;
  cadreinst_mor: string;
  etat_mor: string;
  montant_prevu: string;
  montant_trealise: string;
  difficult: string;
  solution: string;
  perspective: string;
  structure_id: string;
}

type FieldName = keyof ReformeFormValues;

/** The most characters each text field takes, from the domain schema the API applies. */
const limitOf = (field: FieldName) => textLimitOf(reformeSchema.shape[field as keyof typeof reformeSchema.shape]);

/** Section titles read as headings, not as field labels. */
const LEGEND_STYLES = { legend: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } };

const isIsoDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The two dates, in order: what the period text and the "Date Incorrect" alert are made of. */
export function isDateOrderWrong(values: Pick<ReformeFormValues, 'date_debut' | 'date_fin'>): boolean {
  return isIsoDate(values.date_debut) && isIsoDate(values.date_fin) && isStartAfterEnd(values.date_debut, values.date_fin);
}

/**
 * The domain schema of the caller's role, plus the two object-wide rules that zod only checks once
 * every field is valid: the date order and saisie central's structure. Each message shows as soon
 * as its field is wrong, not only after the rest is filled.
 */
function reformeResolver(role: string | undefined): Resolver<ReformeFormValues> {
  const base = zodResolver(reformeSchemaFor(role)) as unknown as Resolver<ReformeFormValues>;
  return async (values, context, options) => {
    const result = await base(values, context, options);
    const errors: FieldErrors<ReformeFormValues> = { ...result.errors };
    if (choosesStructure(role) && !values.structure_id) {
      errors.structure_id ??= { type: 'required', message: REFORME_MESSAGES.structure_id };
    }
    if (isDateOrderWrong(values)) errors.date_fin ??= { type: 'order', message: REFORME_MESSAGES.dateOrder };
    return Object.keys(errors).length > 0 ? { values: {}, errors } : result;
  };
}

const text = (value: string | null | undefined) => value ?? '';

export function formValuesOf(reforme: ReformeDetail | undefined): ReformeFormValues {
  return {
    libref: text(reforme?.libref),
    typeref: text(reforme?.typeref),
    nature_id: reforme ? String(reforme.nature_id) : '',
    objectif_glob: text(reforme?.objectif_glob),
    popul_cible: text(reforme?.popul_cible),
    couverture_id: reforme ? String(reforme.couverture_id) : '',
    struct_impl: text(reforme?.struct_impl),
    date_debut: text(reforme?.date_debut).slice(0, 10),
    date_fin: text(reforme?.date_fin).slice(0, 10),
    periodexe: text(reforme?.periodexe),
    cadreinst_mor: text(reforme?.cadreinst_mor),
    etat_mor: text(reforme?.etat_mor),
    montant_prevu: formatEuro(reforme?.montant_prevu),
    montant_trealise: formatEuro(reforme?.montant_trealise),
    difficult: text(reforme?.difficult),
    solution: text(reforme?.solution),
    perspective: text(reforme?.perspective),
    structure_id: reforme ? String(reforme.structure_id) : '',
  };
}

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
  const [pending, setPending] = useState<ReformeFile[]>([]);

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
                resource="natures"
                optionLabel={(row) => String(row.libnature)}
                error={message('nature_id')}
              />
              <LookupField
                control={control}
                name="couverture_id"
                label="Couverture"
                resource="covers"
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
            <LongTextField
              control={control}
              name="difficult"
              maxLength={limitOf('difficult')}
              label="Difficultés"
              error={message('difficult')}
            />
            <LongTextField
              control={control}
              name="solution"
              maxLength={limitOf('solution')}
              label="Solutions"
              error={message('solution')}
            />
            <LongTextField
              control={control}
              name="perspective"
              maxLength={limitOf('perspective')}
              label="Perspectives"
              error={message('perspective')}
            />
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
              resource="structures"
              optionLabel={(row) => `${row.designation} (${row.sigl})`}
              error={message('structure_id')}
            />
          </Fieldset>
        )}

        <Fieldset styles={LEGEND_STYLES} legend="Documentation" disabled={!!locked}>
          <ReformeFilesField existing={reforme?.files ?? []} pending={pending} onPendingChange={setPending} disabled={!!locked} />
        </Fieldset>

        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Annuler
          </Button>
          <Button type="submit" loading={saving} disabled={!!locked} leftSection={<IconDeviceFloppy size={16} aria-hidden />}>
            Enregistrer
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

interface ControlledFieldProps {
  control: Control<ReformeFormValues>;
  name: FieldName;
  label: string;
  error?: string;
}

function DateField({ control, name, label, error }: ControlledFieldProps) {
  return (
    <Controller
      name={name}
      control={control}
      // The period is made of both dates: its message follows them.
      rules={{ deps: ['periodexe'] }}
      render={({ field }) => (
        <FrenchDateInput
          label={label}
          withAsterisk
          error={error}
          value={field.value}
          onChange={field.onChange}
          onBlur={(event) => {
            // A whole date typed without leaving a valid one behind still counts.
            const typed = parseFrenchDate(event.currentTarget.value);
            if (typed && typed !== field.value) field.onChange(typed);
            field.onBlur();
          }}
          ref={field.ref}
          name={field.name}
        />
      )}
    />
  );
}

function ChoiceField({
  control,
  name,
  label,
  error,
  data,
  required,
}: ControlledFieldProps & { data: { value: string; label: string }[]; required?: boolean }) {
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <Select
          label={label}
          withAsterisk={required}
          data={data}
          value={field.value || null}
          onChange={(value) => field.onChange(value ?? '')}
          onBlur={field.onBlur}
          ref={field.ref}
          error={error}
          clearable={!required}
          placeholder="Choisir..."
          allowDeselect={!required}
        />
      )}
    />
  );
}

/** A select whose choices are a reference list (`GET natures`...); a blocked entry stays only if chosen. */
function LookupField({
  control,
  name,
  label,
  error,
  resource,
  optionLabel,
}: ControlledFieldProps & { resource: string; optionLabel: (row: LookupRow) => string }) {
  const chosen = useWatch({ control, name });
  const data = useLookup(resource, optionLabel, (row) => row.is_active !== false || String(row.id) === chosen);
  return (
    <Controller
      name={name}
      control={control}
      render={({ field }) => {
        return (
          <Select
            label={label}
            withAsterisk
            searchable
            nothingFoundMessage="Aucun résultat trouvé"
            placeholder="Choisir..."
            data={data}
            value={field.value || null}
            onChange={(value) => field.onChange(value ?? '')}
            onBlur={field.onBlur}
            ref={field.ref}
            error={error}
          />
        );
      }}
    />
  );
}
