import { Badge, Stack, Table, Text, Title } from '@mantine/core';
import {
  dateTime,
  etatLabel,
  exactPercentageText,
  formatEuro,
  longDate,
  objectivePercentage,
  REFORME_MESSAGES,
  resultStatusText,
  typeLabel,
} from '@reformes/domain';
import type { ReactNode } from 'react';
import { StatusBadge } from '../../components/status-badge.tsx';
import type { ObjectifRow, ReformeDetail, ResultatRow } from './reformes-api.ts';

/** The fields of spec §2.10 "Reform detail sheet", in its order, with the reform's lookups. */
export function sheetFields(reforme: ReformeDetail): { label: string; value: ReactNode }[] {
  return [
    { label: 'Libellé', value: reforme.libref },
    { label: 'Type de réforme', value: typeLabel(reforme.typeref) },
    { label: 'Nature', value: reforme.nature?.libnature },
    { label: 'Couverture', value: reforme.couverture?.lib_couvert },
    { label: 'Structure en charge', value: reforme.structure ? `${reforme.structure.designation} (${reforme.structure.sigl})` : '' },
    { label: 'Objectif global', value: reforme.objectif_glob },
    { label: 'Population cible', value: reforme.popul_cible },
    { label: 'Structures impliquées', value: reforme.struct_impl },
    { label: "Période d'exécution", value: reforme.periodexe },
    { label: 'Date de début', value: longDate(reforme.date_debut) },
    { label: 'Date de fin', value: longDate(reforme.date_fin) },
    { label: "Date d'enregistrement", value: dateTime(reforme.date_enreg) },
    { label: 'Cadre institutionnel', value: reforme.cadreinst_mor },
    { label: 'Etat de mise en œuvre', value: etatLabel(reforme.etat_mor) },
    { label: 'Montant prévu', value: formatEuro(reforme.montant_prevu) },
    { label: 'Montant réalisé', value: formatEuro(reforme.montant_trealise) },
    { label: 'Difficultés', value: reforme.difficult },
    { label: 'Solutions', value: reforme.solution },
    { label: 'Perspectives', value: reforme.perspective },
    { label: 'Publiée ?', value: reforme.isPublished ? 'Oui' : 'Non' },
  ];
}

/** The detail sheet: one labelled line per field; an empty field reads "—". */
export function ReformeSheet({ reforme }: { reforme: ReformeDetail }) {
  return (
    <Table variant="vertical" withTableBorder layout="fixed" aria-label="Détails de la réforme">
      <Table.Tbody>
        {sheetFields(reforme).map((field) => (
          <Table.Tr key={field.label}>
            <Table.Th scope="row" w={200}>
              {field.label}
            </Table.Th>
            <Table.Td style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{field.value || '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

const numberText = (value: string | number) => new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 4 }).format(Number(value));

interface ObjectifsViewProps {
  objectifs: ObjectifRow[];
  /** Spec §4: the validation list reads a result's status "En attente d'atteinte" / "atteint". */
  inValidationList?: boolean;
}

/** "Objectifs et résultats attendus": each objective, its share of validated results (unrounded, spec §4), and its results. */
export function ObjectifsView({ objectifs, inValidationList = false }: ObjectifsViewProps) {
  if (objectifs.length === 0) return <Text c="dimmed">{REFORME_MESSAGES.noObjectifs}</Text>;
  return (
    <Stack>
      {objectifs.map((objectif) => {
        const results = objectif.results ?? [];
        const percentage = objectivePercentage(results);
        return (
          <Stack key={objectif.id} gap="xs">
            <Title order={3} size="h5">
              {objectif.libobjectif}
              {objectif.is_active === false && <StatusBadge isActive={false} />}
              {percentage !== undefined && (
                <Badge ml="sm" variant="light">
                  {exactPercentageText(percentage)} validés
                </Badge>
              )}
            </Title>
            <ResultsTable results={results} label={`Résultats attendus : ${objectif.libobjectif}`} inValidationList={inValidationList} />
          </Stack>
        );
      })}
    </Stack>
  );
}

interface ResultsTableProps {
  results: ResultatRow[];
  label: string;
  inValidationList?: boolean;
}

/** An objective's expected results: label, indicator, target and reference values, status. */
export function ResultsTable({ results, label, inValidationList = false }: ResultsTableProps) {
  if (results.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {REFORME_MESSAGES.noResults}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table withTableBorder striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Résultat attendu</Table.Th>
            <Table.Th>Indicateur</Table.Th>
            <Table.Th>Valeur cible</Table.Th>
            <Table.Th>Valeur de référence</Table.Th>
            <Table.Th>Statut</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {results.map((result) => (
            <Table.Tr key={result.id}>
              <Table.Td>{result.libresult}</Table.Td>
              <Table.Td>{result.indicateur}</Table.Td>
              <Table.Td>{numberText(result.valeur_cible)}</Table.Td>
              <Table.Td>{numberText(result.valeurref)}</Table.Td>
              <Table.Td>
                {resultStatusText(result.status, inValidationList)}
                {result.is_active === false && (
                  <>
                    {' '}
                    <StatusBadge isActive={false} />
                  </>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
