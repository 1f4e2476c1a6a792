import { Button, Group } from '@mantine/core';
import { pageWindow } from '@reformes/domain';

interface PaginationProps {
  page: number;
  total: number;
  onChange: (page: number) => void;
  /** Names the navigation landmark. */
  label?: string;
}

/** "Précédent", up to 9 page links, "Suivant"; nothing at all with a single page (spec §9). */
export function Pagination({ page, total, onChange, label = 'Pagination' }: PaginationProps) {
  if (total <= 1) return null;
  return (
    <Group component="nav" aria-label={label} gap={4} justify="center">
      <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        Précédent
      </Button>
      {pageWindow(page, total).map((number) => (
        <Button
          key={number}
          size="xs"
          variant={number === page ? 'filled' : 'default'}
          aria-current={number === page ? 'page' : undefined}
          aria-label={`Page ${number}`}
          onClick={() => onChange(number)}
        >
          {number}
        </Button>
      ))}
      <Button variant="default" size="xs" disabled={page >= total} onClick={() => onChange(page + 1)}>
        Suivant
      </Button>
    </Group>
  );
}
