import { Text } from '@mantine/core';
import { MESSAGES, TITLES } from '@reformes/domain';
import { ApiError } from '../../api/api-error.ts';
import { notifyError } from '../../components/notify.tsx';

/**
 * Spec §8 "Account": the failure's own wording ("Changement de mot de passe échouée"...) titled
 * "Mon compte", followed by what the server said (its field errors, else its message).
 */
export function showAccountFailure(headline: string, error: unknown): void {
  if (!(error instanceof ApiError)) {
    console.log(MESSAGES.unknownError, error);
    return;
  }
  const details = Object.values(error.errorsList ?? {}).flat();
  const lines = details.length > 0 ? details : [error.message];
  notifyError(
    <>
      <Text size="sm" fw={700}>
        {headline}
      </Text>
      {[...new Set(lines)].map((line) => (
        <Text size="sm" key={line}>
          {line}
        </Text>
      ))}
    </>,
    TITLES.account,
  );
}
