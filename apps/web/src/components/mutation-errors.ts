import { MutationCache } from '@tanstack/react-query';
import { showApiError } from './show-api-error.tsx';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** The toast's title when the mutation fails (spec §8: failures are titled by feature). */
      errorTitle?: string;
    };
  }
}

/**
 * One place shows a failed mutation: a mutation names its feature with `meta: { errorTitle }` instead of
 * repeating `onError: (error) => showApiError(error, title)`. Forms that put the errors under their
 * fields keep their own `onError` and leave `errorTitle` out.
 */
export function mutationErrorsCache(): MutationCache {
  return new MutationCache({
    onError: (error, _variables, _result, mutation) => {
      const title = mutation.meta?.errorTitle;
      if (title) showApiError(error, title);
    },
  });
}
