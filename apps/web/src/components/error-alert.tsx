import { Alert } from '@mantine/core';
import { MESSAGES } from '@reformes/domain';
import { IconAlertCircle } from '@tabler/icons-react';
import { ApiError } from '../api/api-error.ts';
import { ErrorMessage } from './error-message.tsx';

interface ErrorAlertProps {
  /** The feature the failure belongs to (spec §8 titles errors by feature). */
  title: string;
  error: unknown;
}

/** An inline error, for failures that replace a page's content (a list or dashboard that did not load). */
export function ErrorAlert({ title, error }: ErrorAlertProps) {
  const apiError = error instanceof ApiError ? error : undefined;
  return (
    <Alert color="red" title={title} icon={<IconAlertCircle aria-hidden />} role="alert">
      <ErrorMessage message={apiError?.message ?? MESSAGES.unknownError} errorsList={apiError?.errorsList} />
    </Alert>
  );
}
