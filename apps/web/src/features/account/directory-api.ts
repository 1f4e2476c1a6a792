import { DIRECTORY_ROUTES } from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call.ts';

/** What the server offers (issue 42): whether the directory is configured, its button's text. */
export const signInOptionsQuery = () =>
  queryOptions({
    queryKey: ['auth', 'options'],
    queryFn: () => call(DIRECTORY_ROUTES.options, {}),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** « Lier à l'annuaire »: the provider's address, where the browser goes next (the dance's cookie came with it). */
export const startLink = () => call(DIRECTORY_ROUTES.link, {});
export const unlinkOwn = () => call(DIRECTORY_ROUTES.unlink, {});
