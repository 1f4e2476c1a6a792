import { Badge, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  isResultValidable,
  MESSAGES,
  measureText,
  objectivePercentage,
  REFORME_MESSAGES,
  resultStatusText,
  SUIVI_MESSAGES,
} from '@reformes/domain';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { ObjectiveProgress } from '../../components/objective-progress.tsx';
import { ProgressChart } from '../../components/progress-chart/progress-chart.tsx';
import { Term } from '../../components/term.tsx';
import { useCan } from '../../session/use-can.ts';
import { type SuiviObjectif, type SuiviResultat, suiviReformeQuery, useReloadSuivi, validateResultat } from './suivi-api.ts';
import { SuiviRecordsTable } from './suivi-records-table.tsx';
import { SuiviReformePicker } from './suivi-reforme-picker.tsx';

const DETAIL_ID = 'suivi-detail';

/** The reform of the address (`?reforme=12`), if it is an id at all. */
function reformeIdOf(param: string | null): number | null {
  return param && /^[1-9]\d*$/.test(param) ? Number(param) : null;
}

interface SuiviViewPageProps {
  /** The portfolio shown above the detail (app/ gives features/portfolio's), opening a reform with `open(id)`. */
  overview?: (open: (reformeId: number) => void) => ReactNode;
}

/**
 * "Suivi des réformes" (/admin/follow-reformes): a reform (searched on the server), then each objective with the share of
 * validated results and each result with its figures, status, records and progress chart. The chosen
 * reform stays in the address (?reforme=id), so a reload or a shared link shows the same one.
 */
export function SuiviViewPage({ overview }: SuiviViewPageProps) {
  const canValidate = useCan('resultats-validation', 'edit');
  const canSeePortfolio = useCan('suivi-results', 'list');
  const reload = useReloadSuivi();
  const [params, setParams] = useSearchParams();
  const reformeId = reformeIdOf(params.get('reforme'));
  const chosen = useQuery(suiviReformeQuery(reformeId));
  // Out of scope or gone: no choice.
  const reforme = chosen.data ?? undefined;
  const isGone = chosen.isSuccess && chosen.data === null;
  const [validating, setValidating] = useState<SuiviResultat>();

  const validate = useMutation({
    mutationFn: (result: SuiviResultat) => validateResultat(result.id),
    onSuccess: async (response) => {
      notifySuccess(response.message || REFORME_MESSAGES.resultValidated, SUIVI_MESSAGES.validateTitle);
      setValidating(undefined);
      await reload();
    },
    meta: { errorTitle: SUIVI_MESSAGES.validateTitle },
    onError: () => setValidating(undefined),
  });

  const onValidate = canValidate ? setValidating : undefined;
  // The portfolio's filters stay in the address beside the chosen reform.
  const choose = (value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set('reforme', value);
        else next.delete('reforme');
        return next;
      },
      { replace: true },
    );

  return (
    <Stack>
      <Title order={1}>{SUIVI_MESSAGES.viewTitle}</Title>
      {canSeePortfolio &&
        overview?.((id) => {
          choose(String(id));
          document.getElementById(DETAIL_ID)?.scrollIntoView({ block: 'start' });
        })}
      <Title order={2} id={DETAIL_ID} size="h3">
        {SUIVI_MESSAGES.detailTitle}
      </Title>
      <SuiviReformePicker
        label="Réforme"
        value={reformeId === null || isGone ? null : String(reformeId)}
        selectedLabel={reforme?.libref}
        onChange={(value) => choose(value)}
        maw={640}
      />
      {chosen.error ? (
        <ErrorAlert title={SUIVI_MESSAGES.viewTitle} error={chosen.error} />
      ) : reformeId !== null && chosen.isPending ? (
        <Center py="md" role="status">
          <Loader size="sm" aria-label={MESSAGES.loading} />
        </Center>
      ) : (
        reforme &&
        (reforme.objectifs.length === 0 ? (
          <Text c="dimmed">{SUIVI_MESSAGES.noFollowUp}</Text>
        ) : (
          <Stack component="section" aria-label={`Suivi de la réforme ${reforme.libref}`}>
            <Text size="sm" c="dimmed">
              {reforme.periodexe}
            </Text>
            {reforme.objectifs.map((objectif) => (
              <ObjectifPanel key={objectif.id} objectif={objectif} onValidate={onValidate} />
            ))}
          </Stack>
        ))
      )}
      <ConfirmDialog
        opened={validating !== undefined}
        title={SUIVI_MESSAGES.validateTitle}
        question={REFORME_MESSAGES.confirmValidateResult}
        loading={validate.isPending}
        onConfirm={() => validating && validate.mutate(validating)}
        onCancel={() => setValidating(undefined)}
      />
    </Stack>
  );
}

interface PanelProps {
  /** Set only for those who may validate a result (spec §6: publication). */
  onValidate?: (result: SuiviResultat) => void;
}

function ObjectifPanel({ objectif, onValidate }: PanelProps & { objectif: SuiviObjectif }) {
  return (
    <Paper withBorder p="md" component="article" aria-labelledby={`objectif-${objectif.id}`}>
      <Stack>
        <Group justify="space-between" align="flex-start" gap="md">
          <Title order={2} size="h3" id={`objectif-${objectif.id}`}>
            {objectif.libobjectif}
          </Title>
          <div style={{ minWidth: 220, flex: '0 1 320px' }}>
            <ObjectiveProgress value={objectivePercentage(objectif.results)} label={objectif.libobjectif} />
          </div>
        </Group>
        {objectif.results.length === 0 ? (
          <Text c="dimmed" size="sm">
            {REFORME_MESSAGES.noResults}
          </Text>
        ) : (
          objectif.results.map((result) => <ResultPanel key={result.id} result={result} onValidate={onValidate} />)
        )}
      </Stack>
    </Paper>
  );
}

function ResultPanel({ result, onValidate }: PanelProps & { result: SuiviResultat }) {
  const validated = result.status === 1;
  return (
    <Paper withBorder p="sm" bg="var(--mantine-color-gray-0)">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {result.libresult}
          </Title>
          <Group gap="sm">
            <Badge color={validated ? 'teal.9' : 'gray'} variant={validated ? 'filled' : 'light'}>
              {resultStatusText(result.status)}
            </Badge>
            {onValidate && isResultValidable(result) && (
              <Button
                size="xs"
                leftSection={<IconCircleCheck size={16} aria-hidden />}
                aria-label={`Valider le résultat ${result.libresult}`}
                onClick={() => onValidate(result)}
              >
                Valider
              </Button>
            )}
          </Group>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 3 }} component="dl" spacing="xs" m={0}>
          <Term term="Indicateur">{result.indicateur}</Term>
          <Term term="Valeur cible">{measureText(result.valeur_cible)}</Term>
          <Term term="Valeur de référence">{measureText(result.valeurref)}</Term>
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          <SuiviRecordsTable label={`Données de suivi du résultat ${result.libresult}`} records={result.suivi_results} />
          <ProgressChart result={result} />
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
