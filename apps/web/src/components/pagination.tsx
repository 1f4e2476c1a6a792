import { Button, Group } from '@mantine/core';

/** Spec §9: at most 9 page links. */
export const MAX_PAGE_LINKS = 9;

/** The page numbers to link, a window around the current page: `pageWindow(12, 20)` is 8..16. */
export function pageWindow(current: number, total: number, size = MAX_PAGE_LINKS): number[] {
  const count = Math.min(size, total);
  const start = Math.min(Math.max(1, current - Math.floor(size / 2)), total - count + 1);
  return Array.from({ length: count }, (_, index) => start + index);
}

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
