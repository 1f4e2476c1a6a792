import { TextInput, type TextInputProps } from '@mantine/core';
import { formatEuro, parseAmount } from '@reformes/domain';
import { forwardRef } from 'react';

type AmountInputProps = Omit<TextInputProps, 'value' | 'onChange'> & {
  value: string;
  onChange: (value: string) => void;
};

/**
 * An amount in euros typed the French way ("1 234,50", "1234.5"): the text is kept while typing
 * and shown as "1 234,50 €" once the field is left, when it reads as a number.
 */
export const AmountInput = forwardRef<HTMLInputElement, AmountInputProps>(function AmountInput({ value, onChange, onBlur, ...props }, ref) {
  return (
    <TextInput
      {...props}
      ref={ref}
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onBlur={(event) => {
        const amount = parseAmount(value);
        if (amount !== null && Number.isFinite(amount) && amount >= 0) onChange(formatEuro(amount));
        onBlur?.(event);
      }}
    />
  );
});
