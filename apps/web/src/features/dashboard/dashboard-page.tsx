import { Center, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { DASHBOARD_MESSAGES, ETATS_MOR, MESSAGES, roleOf, statCardsOf, TITLES } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/api-error.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { portfolioCountsQuery } from '../../components/portfolio/portfolio-counts.ts';
import { PortfolioCountersCard } from '../../components/portfolio/status-counters.tsx';
import { useCan } from '../../session/use-can.ts';
import { useSession } from '../../session/use-session.ts';
import { BarChart } from './bar-chart.tsx';
import { dashboardQuery } from './dashboard-api.ts';
import { StatCard } from './stat-card.tsx';

/** One colour per état, dark enough to stand out on white (WCAG 1.4.11). */
const ETAT_COLORS: Record<string, string> = {
  en_cours: 'var(--mantine-color-blue-7)',
  planifiee: 'var(--mantine-color-violet-7)',
  terminee: 'var(--mantine-color-green-8)',
  suspendue: 'var(--mantine-color-orange-8)',
};

export function DashboardPage() {
  const { user } = useSession();
  const dashboard = useQuery(dashboardQuery(user?.id));
  // The portfolio's counters, for those who see the follow-up view (issue 16).
  const followsReformes = useCan('suivi-results', 'list');
  const portfolio = useQuery(portfolioCountsQuery({}, followsReformes));

  return (
    <Stack>
      <Title order={1}>Tableau de bord</Title>
      {dashboard.isPending && (
        <Center py="xl" role="status">
          <Loader aria-label={MESSAGES.loading} />
        </Center>
      )}
      {dashboard.isError &&
        // A role without the dashboard right (a role of its own, spec §2.3) has nothing to see, which is no failure.
        (isRefusal(dashboard.error) ? <NoIndicator /> : <ErrorAlert title={TITLES.dashboard} error={dashboard.error} />)}
      {dashboard.data && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {statCardsOf(roleOf(user)).map((card) => (
              <StatCard key={card.key} label={card.label} value={dashboard.data[card.key]} />
            ))}
          </SimpleGrid>
          {followsReformes && <PortfolioCountersCard counts={portfolio.data} />}
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <BarChart
              title="Réformes par état"
              rows={ETATS_MOR.map((etat) => ({
                label: etat.label,
                total: dashboard.data.by_etat?.find((row) => row.etat_mor === etat.value)?.total ?? 0,
                color: ETAT_COLORS[etat.value],
              }))}
            />
            <BarChart
              title="Réformes par nature"
              rows={(dashboard.data.by_nature ?? []).map((row) => ({
                label: row.libnature,
                total: row.total,
                color: 'var(--mantine-color-teal-7)',
              }))}
            />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}

function isRefusal(error: Error): boolean {
  return error instanceof ApiError && error.status === 403;
}

function NoIndicator() {
  return (
    <Paper withBorder radius="md" p="lg" role="status">
      <Text fw={600}>{DASHBOARD_MESSAGES.noIndicator}</Text>
      <Text size="sm" c="dimmed" mt={4}>
        {DASHBOARD_MESSAGES.noIndicatorHint}
      </Text>
    </Paper>
  );
}
