import { PORTFOLIO_STATUS_VALUES, type PortfolioStatus } from '../portfolio-status.ts';
import { z } from '../zod-locale.ts';

/** One row of the overview. */
export const portfolioRowShape = z.object({
  id: z.number(),
  libref: z.string(),
  typeref: z.string(),
  etat_mor: z.string().nullable(),
  date_debut: z.string(),
  date_fin: z.string(),
  structure: z.string().nullable(),
  nature: z.string().nullable(),
  status: z.enum(PORTFOLIO_STATUS_VALUES),
  progress: z.number(),
  days_without_suivi: z.number().nullable(),
  last_suivi_date: z.string().nullable(),
  results_total: z.number(),
  results_validated: z.number(),
});
export type PortfolioRow = z.infer<typeof portfolioRowShape>;

/** How many reforms of the scope (and filters) stand at each status. */
export const portfolioCountsShape = z.object(
  Object.fromEntries(PORTFOLIO_STATUS_VALUES.map((status) => [status, z.number()])) as Record<PortfolioStatus, z.ZodNumber>,
);
export type PortfolioCounts = z.infer<typeof portfolioCountsShape>;
