/** Spec §9: at most 9 page links. */
export const MAX_PAGE_LINKS = 9;

/** The page numbers to link, a window around the current page: `pageWindow(12, 20)` is 8..16 (back office and public list). */
export function pageWindow(current: number, total: number, size = MAX_PAGE_LINKS): number[] {
  const count = Math.min(size, total);
  const start = Math.min(Math.max(1, current - Math.floor(size / 2)), total - count + 1);
  return Array.from({ length: count }, (_, index) => start + index);
}
