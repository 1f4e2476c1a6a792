import { TextInput, type TextInputProps } from '@mantine/core';
import { TWO_FACTOR_MESSAGES, twoFactorCodeField } from '@reformes/domain';
import { type FormEvent, useState } from 'react';

/**
 * The code of a second factor as the sign-in and the enrolment take it: typed, checked by the domain's rule before
 * anything is sent, its error under the field. `const code = useTwoFactorCode(); <form onSubmit={code.onSubmit(send)}>`.
 */
export function useTwoFactorCode() {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string>();
  return {
    setError,
    onSubmit: (send: (code: string) => void) => (event: FormEvent) => {
      event.preventDefault();
      const parsed = twoFactorCodeField.safeParse(value);
      if (!parsed.success) setError(parsed.error.issues[0].message);
      else send(parsed.data);
    },
    input: {
      value,
      error,
      onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
        setValue(event.currentTarget.value);
        setError(undefined);
      },
    },
  };
}

/** The field itself: numeric keyboard on phones, the browser's one-time-code autofill. */
export function TwoFactorCodeInput(props: TextInputProps) {
  return <TextInput label={TWO_FACTOR_MESSAGES.codeLabel} inputMode="numeric" autoComplete="one-time-code" withAsterisk {...props} />;
}
