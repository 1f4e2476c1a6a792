import { Textarea, type TextareaProps } from '@mantine/core';
import { lengthCounter, TEXT_LIMITS } from '@reformes/domain';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';

type LongTextFieldProps<Values extends FieldValues> = Omit<
  TextareaProps,
  'name' | 'value' | 'onChange' | 'onBlur' | 'maxLength' | 'description'
> & {
  control: Control<Values>;
  name: Path<Values>;
  /** Shown under the field, before the counter. */
  description?: string;
  /** The schema's limit (`textLimitOf(schema.shape.field)`); a long text's 5 000 by default. */
  maxLength?: number;
};

/**
 * A paragraph field (objective, difficulties, instruction...): the browser stops at the schema's limit and a
 * counter under the field says how much is used, "123 / 5 000".
 */
export function LongTextField<Values extends FieldValues>({
  control,
  name,
  maxLength = TEXT_LIMITS.longText,
  description,
  ...props
}: LongTextFieldProps<Values>) {
  const { field } = useController({ control, name });
  const text = typeof field.value === 'string' ? field.value : '';
  const counter = lengthCounter(text.length, maxLength);
  return (
    <Textarea
      rows={2}
      resize="vertical"
      {...props}
      name={field.name}
      ref={field.ref}
      value={text}
      onChange={field.onChange}
      onBlur={field.onBlur}
      maxLength={maxLength}
      description={description ? `${description} — ${counter}` : counter}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}
