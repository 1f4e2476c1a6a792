import { Button, Group, Paper, Text } from '@mantine/core';
import { PORTFOLIO_MESSAGES, PORTFOLIO_STATUSES, type PortfolioCounts, type PortfolioStatus } from '@reformes/domain';
import { Link } from 'react-router';
import { STATUS_COLORS } from './status-badge.tsx';

/** Where the overview of "Suivi des réformes" lives; `?status=` filters it. */
export const PORTFOLIO_ROUTE = '/admin/follow-reformes';

interface StatusCountersProps {
  counts: PortfolioCounts | undefined;
  /** Toggles the overview's status filter; without it each counter links to the filtered overview. */
  onToggle?: (status: PortfolioStatus) => void;
  active?: PortfolioStatus;
}

/** How many reforms stand at each status, most urgent first: "En retard : 3". */
export function StatusCounters({ counts, onToggle, active }: StatusCountersProps) {
  return (
    <Group gap="xs" role="group" aria-label={PORTFOLIO_MESSAGES.countersTitle}>
      {PORTFOLIO_STATUSES.map((entry) => {
        const text = `${entry.label} : ${counts ? counts[entry.value] : '…'}`;
        const marker = (
          <span
            aria-hidden
            style={{
              width: 10,
              height: 10,
              borderRadius: 2,
              background: `var(--mantine-color-${STATUS_COLORS[entry.value].replace('.', '-')})`,
            }}
          />
        );
        return onToggle ? (
          <Button
            key={entry.value}
            size="xs"
            variant={active === entry.value ? 'filled' : 'default'}
            aria-pressed={active === entry.value}
            leftSection={marker}
            onClick={() => onToggle(entry.value)}
          >
            {text}
          </Button>
        ) : (
          <Button
            key={entry.value}
            size="xs"
            variant="default"
            leftSection={marker}
            component={Link}
            to={`${PORTFOLIO_ROUTE}?status=${entry.value}`}
          >
            {text}
          </Button>
        );
      })}
    </Group>
  );
}

/** The dashboard's card: the counters of the portfolio, each a link to the overview it counts. */
export function PortfolioCountersCard({ counts }: { counts: PortfolioCounts | undefined }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="portfolio-counters-title">
      <Text fw={600} mb="xs" id="portfolio-counters-title" component="h2" size="md">
        {PORTFOLIO_MESSAGES.countersTitle}
      </Text>
      <StatusCounters counts={counts} />
    </Paper>
  );
}
