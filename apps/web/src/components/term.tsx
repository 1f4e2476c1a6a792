import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One entry of a description list (`<dl>`): the term small and dimmed, its value below it. */
export function Term({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed">
        {term}
      </Text>
      <Text component="dd" size="sm" m={0}>
        {children}
      </Text>
    </div>
  );
}
