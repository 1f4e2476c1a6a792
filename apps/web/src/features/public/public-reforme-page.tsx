import { Anchor, Badge, Center, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { MESSAGES, measureText, PAGE_HEADS, PUBLIC_MESSAGES, pageTitle, rateText, resultStatusText, typeLabel } from '@reformes/domain';
import { IconArrowLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams } from 'react-router';
import { ApiError } from '../../api/api-error.ts';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { formatEuro, longDate } from '../../components/french-format.ts';
import { ObjectiveProgress } from '../../components/objective-progress.tsx';
import { ProgressChart } from '../../components/progress-chart/progress-chart.tsx';
import { Term } from '../../components/term.tsx';
import { usePageHead } from '../../components/use-page-head.ts';
import { type PublicObjectif, type PublicReformeDetail, publicReformeQuery } from './public-api.ts';
import { PublicShell } from './public-shell.tsx';

/** /accueil/reformes/:id, open to everyone: a published reform, its objectives' progress and its results' latest values. */
export function PublicReformePage() {
  const id = Number(useParams().id);
  const from = (useLocation().state as { from?: string } | null)?.from ?? '';
  const isValidId = Number.isInteger(id) && id > 0;
  const reforme = useQuery({ ...publicReformeQuery(id), enabled: isValidId });
  const isMissing = !isValidId || (reforme.error instanceof ApiError && reforme.error.status === 404);
  usePageHead({ ...PAGE_HEADS.publicReforme, ...(reforme.data ? { title: pageTitle(reforme.data.libref) } : {}) });

  return (
    <PublicShell>
      <Stack>
        <Anchor component={Link} to={`/accueil${from}`} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} aria-hidden />
            {PUBLIC_MESSAGES.backToList}
          </Group>
        </Anchor>
        {isMissing ? (
          <>
            <Title order={1}>{PUBLIC_MESSAGES.title}</Title>
            <Text>{PUBLIC_MESSAGES.notFound}</Text>
          </>
        ) : reforme.error ? (
          <ErrorAlert title={PUBLIC_MESSAGES.title} error={reforme.error} />
        ) : reforme.isPending ? (
          <Center py="xl" role="status">
            <Loader size="sm" aria-label={MESSAGES.loading} />
          </Center>
        ) : (
          <ReformeSheet reforme={reforme.data} />
        )}
      </Stack>
    </PublicShell>
  );
}

function ReformeSheet({ reforme }: { reforme: PublicReformeDetail }) {
  return (
    <>
      <Stack gap={4}>
        <Title order={1}>{reforme.libref}</Title>
        <Group gap="xs">
          <Badge variant="light">{typeLabel(reforme.typeref)}</Badge>
          {reforme.etat_label && <Badge variant="outline">{reforme.etat_label}</Badge>}
        </Group>
      </Stack>
      <Paper withBorder p="md" component="section" aria-labelledby="general-info">
        <Title order={2} size="h3" id="general-info" mb="sm">
          {PUBLIC_MESSAGES.generalInfo}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} component="dl" spacing="sm" m={0}>
          <Term term="Structure">{`${reforme.structure.designation} (${reforme.structure.sigl})`}</Term>
          <Term term="Nature">{reforme.nature.libnature}</Term>
          <Term term="Couverture">{reforme.couverture.lib_couvert}</Term>
          <Term term="Période d'exécution">{reforme.periodexe}</Term>
          <Term term="Date début">{longDate(reforme.date_debut)}</Term>
          <Term term="Date fin">{longDate(reforme.date_fin)}</Term>
          <Term term="Objectif global">{reforme.objectif_glob}</Term>
          <Term term="Population cible">{reforme.popul_cible}</Term>
          <Term term="Structures impliquées">{reforme.struct_impl}</Term>
          {reforme.cadreinst_mor && <Term term="Cadre institutionnel">{reforme.cadreinst_mor}</Term>}
          {reforme.montant_prevu !== null && <Term term="Montant prévu">{formatEuro(reforme.montant_prevu)}</Term>}
          {reforme.montant_trealise !== null && <Term term="Montant réalisé">{formatEuro(reforme.montant_trealise)}</Term>}
        </SimpleGrid>
      </Paper>
      <Stack component="section" aria-labelledby="objectives">
        <Title order={2} size="h3" id="objectives">
          {PUBLIC_MESSAGES.objectives}
        </Title>
        {reforme.objectifs.length === 0 ? (
          <Text c="dimmed">{PUBLIC_MESSAGES.noObjectives}</Text>
        ) : (
          reforme.objectifs.map((objectif) => <ObjectifSheet key={objectif.id} objectif={objectif} />)
        )}
      </Stack>
    </>
  );
}

function ObjectifSheet({ objectif }: { objectif: PublicObjectif }) {
  return (
    <Paper withBorder p="md" component="article" aria-labelledby={`objectif-${objectif.id}`}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Title order={3} size="h4" id={`objectif-${objectif.id}`}>
            {objectif.libobjectif}
          </Title>
          <div style={{ minWidth: 220, flex: '0 1 320px' }}>
            <ObjectiveProgress value={objectif.percentage} label={objectif.libobjectif} />
          </div>
        </Group>
        {objectif.results.length > 0 && (
          <Table.ScrollContainer minWidth={720}>
            <Table striped withTableBorder aria-label={`Résultats attendus : ${objectif.libobjectif}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Résultat attendu</Table.Th>
                  <Table.Th>Indicateur</Table.Th>
                  <Table.Th>Valeur de référence</Table.Th>
                  <Table.Th>Valeur cible</Table.Th>
                  <Table.Th>Dernière valeur réalisée</Table.Th>
                  <Table.Th>Taux de réalisation</Table.Th>
                  <Table.Th>Statut</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {objectif.results.map((result) => (
                  <Table.Tr key={result.id}>
                    <Table.Td>{result.libresult}</Table.Td>
                    <Table.Td>{result.indicateur}</Table.Td>
                    <Table.Td>{measureText(result.valeurref)}</Table.Td>
                    <Table.Td>{measureText(result.valeur_cible)}</Table.Td>
                    <Table.Td>
                      {result.latest ? (
                        <>
                          {measureText(result.latest.valeur_realise)}
                          <Text size="xs" c="dimmed">
                            au {longDate(result.latest.date)}
                          </Text>
                        </>
                      ) : (
                        <Text size="sm" c="dimmed">
                          {PUBLIC_MESSAGES.noLatest}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{result.latest ? rateText(result.latest.taux_realisat) : ''}</Table.Td>
                    <Table.Td>
                      <Badge color={result.status === 1 ? 'teal.9' : 'gray'} variant={result.status === 1 ? 'filled' : 'light'}>
                        {resultStatusText(result.status)}
                      </Badge>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {objectif.results.some((result) => result.suivi_results.length > 0) && (
          <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
            {objectif.results.map((result) => (
              <ProgressChart key={result.id} result={result} />
            ))}
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}
