import { Center, Loader, Table, Text } from '@mantine/core';
import { MESSAGES } from '@reformes/domain';
import type { ReactNode } from 'react';

interface TableBodyStateProps {
  /** How many columns the state row spans. */
  span: number;
  isLoading: boolean;
  isEmpty: boolean;
  /** What an empty table says; MESSAGES.nothingFound by default. */
  empty?: ReactNode;
  /** The rows, shown once there are some. */
  children: ReactNode;
}

/**
 * The body of every data table: a spinner while the first page loads, a sentence when there is
 * nothing to show, else the rows. A refetch keeps the previous rows on screen (no flicker).
 */
export function TableBodyState({ span, isLoading, isEmpty, empty = MESSAGES.nothingFound, children }: TableBodyStateProps) {
  if (!isEmpty) return <>{children}</>;
  return (
    <Table.Tr>
      <Table.Td colSpan={span}>
        {isLoading ? (
          <Center py="md" role="status">
            <Loader size="sm" aria-label={MESSAGES.loading} />
          </Center>
        ) : (
          <Text c="dimmed" ta="center" py="md">
            {empty}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
