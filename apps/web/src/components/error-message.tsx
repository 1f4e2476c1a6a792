import { List, Text } from '@mantine/core';
import type { ErrorsList } from '../api/api-error.ts';

interface ErrorMessageProps {
  message: string;
  errorsList?: ErrorsList;
}

/** Spec §8: the bold message, then one bullet per field error when the server listed some. */
export function ErrorMessage({ message, errorsList }: ErrorMessageProps) {
  const details = Object.values(errorsList ?? {}).flat();
  if (details.length === 0) return <Text size="sm">{message}</Text>;
  return (
    <>
      <Text size="sm" fw={700}>
        {message}
      </Text>
      <List size="sm" mt={4}>
        {details.map((detail) => (
          <List.Item key={detail}>{detail}</List.Item>
        ))}
      </List>
    </>
  );
}
