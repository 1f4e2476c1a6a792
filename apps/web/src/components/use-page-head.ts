import { PAGE_HEADS } from '@reformes/domain';
import { useEffect } from 'react';

/**
 * Keeps the tab's title and the meta description in step with the screen shown (WCAG 2.4.2): the server writes
 * them into the first page it sends, and a screen reached by a link inside the app sets them here.
 */
export function usePageHead({ title, description = PAGE_HEADS.default.description }: { title: string; description?: string }): void {
  useEffect(() => {
    document.title = title;
    document.querySelector('meta[name="description"]')?.setAttribute('content', description);
  }, [title, description]);
}
