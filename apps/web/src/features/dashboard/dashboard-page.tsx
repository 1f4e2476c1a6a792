import { Center, Loader, SimpleGrid, Stack, Title } from '@mantine/core';
import { ETATS_MOR, MESSAGES, roleOf, statCardsOf, TITLES } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../app/use-session.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { BreakdownCard } from './breakdown-card.tsx';
import { dashboardQuery } from './dashboard-api.ts';
import { StatCard } from './stat-card.tsx';

export function DashboardPage() {
  const { user } = useSession();
  const dashboard = useQuery(dashboardQuery(user?.id));

  return (
    <Stack>
      <Title order={1}>Tableau de bord</Title>
      {dashboard.isPending && (
        <Center py="xl" role="status">
          <Loader aria-label={MESSAGES.loading} />
        </Center>
      )}
      {dashboard.isError && <ErrorAlert title={TITLES.dashboard} error={dashboard.error} />}
      {dashboard.data && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {statCardsOf(roleOf(user)).map((card) => (
              <StatCard key={card.key} label={card.label} value={dashboard.data[card.key]} />
            ))}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <BreakdownCard
              title="Réformes par état"
              rows={ETATS_MOR.map((etat) => ({
                label: etat.label,
                total: dashboard.data.by_etat?.find((row) => row.etat_mor === etat.value)?.total ?? 0,
              }))}
            />
            <BreakdownCard
              title="Réformes par nature"
              rows={(dashboard.data.by_nature ?? []).map((row) => ({ label: row.libnature, total: row.total }))}
            />
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
