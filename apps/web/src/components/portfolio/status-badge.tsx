import { Badge } from '@mantine/core';
import { type PortfolioStatus, portfolioStatusLabel } from '@reformes/domain';

/**
 * Fill colours whose text (black or white, chosen by `autoContrast`) reads at 4.5:1 or more (WCAG AA),
 * and a word on every badge: the colour is never the only sign.
 */
export const STATUS_COLORS: Record<PortfolioStatus, string> = {
  en_retard: 'red.9',
  sans_suivi: 'orange.4',
  a_risque: 'yellow.3',
  dans_les_temps: 'teal.9',
  non_demarree: 'gray.2',
  terminee: 'blue.9',
};

export function PortfolioStatusBadge({ status, days }: { status: PortfolioStatus; days: number | null }) {
  return (
    <Badge color={STATUS_COLORS[status]} autoContrast variant="filled" radius="sm" tt="none" style={{ whiteSpace: 'nowrap' }}>
      {portfolioStatusLabel({ status, days_without_suivi: days })}
    </Badge>
  );
}
