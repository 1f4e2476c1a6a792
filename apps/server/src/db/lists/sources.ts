import { eq, sql } from 'drizzle-orm';
import { reformeProgress, reformes } from '../schema/index.ts';
import type { ListSource } from './kept-page.ts';

/**
 * The reforms, in the orders their lists are paged in, newest first, each served by an index: registration for the
 * back office's lists (one index per scope: all, structure, creator, stage), start date for the public page
 * (reformes_published_idx). Their version is the counter every write statement on `reformes` moves (migration 0003),
 * read outside any snapshot.
 */
export const reformesList: ListSource<'registration' | 'start'> = {
  name: 'reformes',
  from: sql`${reformes}`,
  id: reformes.id,
  orders: {
    registration: {
      direction: 'desc',
      keys: [
        { column: reformes.date_enreg, type: 'timestamptz' },
        { column: reformes.id, type: 'int' },
      ],
    },
    start: {
      direction: 'desc',
      keys: [
        { column: reformes.date_debut, type: 'date' },
        { column: reformes.id, type: 'int' },
      ],
    },
  },
  version: () => sql`(select last_value::text || ':' || is_called::text from reformes_version)`,
};

const p = reformeProgress;

/**
 * The follow-up portfolio (`reforme_progress`, kept by triggers, migration 0007), most urgent first: status, then the
 * earliest end (the order of `reforme_progress_order_idx`). Its version is what `portfolio_prepare(today)` returns
 * (migration 0014) once it has recomputed the rows whose day has passed: it moves only when a progress row changes.
 */
export const progressList: ListSource<'lateness'> = {
  name: 'portfolio',
  from: sql`${p}`,
  id: p.reforme_id,
  orders: {
    lateness: {
      direction: 'asc',
      keys: [
        { column: p.status_rank, type: 'smallint' },
        { column: p.date_fin, type: 'date' },
        { column: p.reforme_id, type: 'int' },
      ],
    },
  },
  version: (param) => sql`(select portfolio_prepare(${param('today')}::date))`,
};

/** The portfolio with its reforms joined, for a searched text: only the reforms carry it. */
export const progressWithReformesList: ListSource<'lateness'> = {
  ...progressList,
  name: 'portfolio+reformes',
  from: sql`${p} inner join ${reformes} on ${eq(reformes.id, p.reforme_id)}`,
};
