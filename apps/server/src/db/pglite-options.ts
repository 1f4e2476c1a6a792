import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** Extensions every PGlite instance of ours loads: the migrations create pg_trgm's trigram index. */
export const PGLITE_EXTENSIONS = { pg_trgm };
