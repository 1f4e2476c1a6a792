import { zodResolver } from '@hookform/resolvers/zod';
import { Checkbox, Modal, MultiSelect, Select, SimpleGrid, TextInput } from '@mantine/core';
import { MESSAGES, textLimitOf } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import { type Control, Controller, type FieldValues, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { allRowsQuery } from '../../api/list-api.ts';
import { FormButtons } from '../form-buttons.tsx';
import { ServerSelect } from '../server-select/server-select.tsx';
import type { FormField, OptionSource, ServerOptionSource } from './list-config.ts';

interface EntityFormModalProps<Row> {
  opened: boolean;
  title: string;
  schema: z.ZodObject;
  fields: FormField<Row>[];
  /** The row being edited; a blank form when absent. */
  row?: Row;
  submitLabel?: string;
  saving: boolean;
  /** Receives the values as the schema outputs them (ids as numbers, checkboxes as booleans). */
  onSubmit: (values: FieldValues) => void;
  onClose: () => void;
}

/** The create and edit form of a list: large, static backdrop, not closed by Escape (spec §9). */
export function EntityFormModal<Row>({ opened, title, onClose, ...form }: EntityFormModalProps<Row>) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      {/* Mounted only while open, so each opening starts from the row. */}
      <EntityForm {...form} onCancel={onClose} />
    </Modal>
  );
}

function blankValue(field: FormField<unknown>): unknown {
  if (field.kind === 'multiselect' || field.kind === 'checkboxgroup') return [];
  if (field.kind === 'checkbox') return false;
  return '';
}

function startValue<Row>(field: FormField<Row>, row: Row | undefined): unknown {
  if (row === undefined) return blankValue(field as FormField<unknown>);
  const value = field.initialValue ? field.initialValue(row) : (row as Record<string, unknown>)[field.name];
  if (field.kind === 'checkbox') return Boolean(value);
  if (field.kind === 'multiselect' || field.kind === 'checkboxgroup') return Array.isArray(value) ? value.map(String) : [];
  return value === null || value === undefined ? '' : String(value);
}

type EntityFormProps<Row> = Omit<EntityFormModalProps<Row>, 'opened' | 'title' | 'onClose'> & { onCancel: () => void };

function EntityForm<Row>({ schema, fields, row, submitLabel = 'Enregistrer', saving, onSubmit, onCancel }: EntityFormProps<Row>) {
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isValid },
  } = useForm<FieldValues, unknown, FieldValues>({
    resolver: zodResolver(schema) as never,
    mode: 'all',
    defaultValues: Object.fromEntries(fields.map((field) => [field.name, startValue(field, row)])),
  });

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)}>
      <SimpleGrid cols={{ base: 1, sm: fields.length > 2 ? 2 : 1 }}>
        {fields.map((field, index) => {
          const error = errors[field.name]?.message as string | undefined;
          switch (field.kind) {
            case 'select':
            case 'multiselect':
              return <OptionsField key={field.name} field={field} control={control} error={error} />;
            case 'server-select':
              return <ServerOptionsField key={field.name} field={field} control={control} error={error} row={row} />;
            case 'checkbox':
              return (
                <Controller
                  key={field.name}
                  name={field.name}
                  control={control}
                  render={({ field: input }) => (
                    <Checkbox
                      label={field.label}
                      checked={Boolean(input.value)}
                      onChange={(event) => input.onChange(event.currentTarget.checked)}
                      onBlur={input.onBlur}
                      ref={input.ref}
                      mt="md"
                    />
                  )}
                />
              );
            case 'checkboxgroup':
              return (
                <Controller
                  key={field.name}
                  name={field.name}
                  control={control}
                  render={({ field: input }) => (
                    <Checkbox.Group
                      label={field.label}
                      withAsterisk
                      error={error}
                      value={Array.isArray(input.value) ? input.value : []}
                      onChange={(value) => {
                        input.onChange(value);
                        input.onBlur();
                      }}
                    >
                      <SimpleGrid cols={2} spacing="xs" mt="xs">
                        {field.choices?.map((choice) => (
                          <Checkbox key={choice.value} value={choice.value} label={choice.label} />
                        ))}
                      </SimpleGrid>
                    </Checkbox.Group>
                  )}
                />
              );
            default:
              return (
                <TextInput
                  key={field.name}
                  label={field.label}
                  type={field.kind === 'email' ? 'email' : field.kind === 'tel' ? 'tel' : 'text'}
                  inputMode={field.kind === 'tel' ? 'numeric' : undefined}
                  withAsterisk
                  error={error}
                  // The limit is the schema's (packages/domain TEXT_LIMITS): the browser stops where the API would refuse.
                  maxLength={textLimitOf(schema.shape[field.name])}
                  // The modal puts the focus on the first field rather than on its close button.
                  data-autofocus={index === 0 || undefined}
                  {...register(field.name)}
                />
              );
          }
        })}
      </SimpleGrid>
      <FormButtons onCancel={onCancel} submitLabel={submitLabel} saving={saving} canSubmit={isValid} />
    </form>
  );
}

interface OptionsFieldProps<Row> {
  field: FormField<Row>;
  control: Control<FieldValues>;
  error?: string;
}

/** A select or multi-select whose choices are another resource's whole list. */
function OptionsField<Row>({ field, control, error }: OptionsFieldProps<Row>) {
  const source = field.options as OptionSource;
  const choices = useQuery(allRowsQuery(source.source));
  const options = (choices.data ?? []).map(source.toOption);

  return (
    <Controller
      name={field.name}
      control={control}
      render={({ field: input }) => {
        // A blocked row is no longer offered, unless it is the current value.
        const current: string[] = Array.isArray(input.value) ? input.value : input.value ? [String(input.value)] : [];
        const data = options
          .filter((option) => option.isActive || current.includes(option.value))
          .map(({ value, label }) => ({ value, label }));
        const common = {
          label: field.label,
          withAsterisk: true,
          error,
          data,
          searchable: true,
          nothingFoundMessage: MESSAGES.nothingFound,
          onBlur: input.onBlur,
          ref: input.ref,
        };
        return field.kind === 'multiselect' ? (
          <MultiSelect {...common} value={current} onChange={input.onChange} />
        ) : (
          <Select {...common} value={current[0] ?? null} onChange={(value) => input.onChange(value ?? '')} />
        );
      }}
    />
  );
}

/** A select whose choices the server searches; the edited row's current choice keeps its label. */
function ServerOptionsField<Row>({ field, control, error, row }: OptionsFieldProps<Row> & { row?: Row }) {
  const source = field.server as ServerOptionSource<Row>;
  const initial = row === undefined ? undefined : { value: startValue(field, row), label: source.selectedLabel(row) };

  return (
    <Controller
      name={field.name}
      control={control}
      render={({ field: input }) => {
        const value = input.value ? String(input.value) : null;
        return (
          <ServerSelect
            label={field.label}
            withAsterisk
            error={error}
            queryKey={source.queryKey}
            fetchPage={source.fetchPage}
            toOption={source.toOption}
            value={value}
            selectedLabel={initial?.value === value ? initial?.label : undefined}
            onChange={(next) => input.onChange(next ?? '')}
            onBlur={input.onBlur}
            inputRef={input.ref}
          />
        );
      }}
    />
  );
}
