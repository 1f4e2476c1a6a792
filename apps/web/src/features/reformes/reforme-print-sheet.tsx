import {
  dateTime,
  exactPercentageText,
  objectivePercentage,
  REFORME_MESSAGES,
  resultStatusText,
  TIMELINE_ACTIONS,
  TIMELINE_KINDS,
  TIMELINE_MESSAGES,
  type TimelineKind,
  type TimelineLine,
} from '@reformes/domain';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import './reforme-print.css';
import { sheetFields } from './reforme-sheet.tsx';
import type { ReformeDetail } from './reformes-api.ts';

/**
 * The detail sheet as printed: rendered straight under <body>, hidden on screen, and the only
 * thing on paper (reforme-print.css). Plain HTML so that it prints the same in every browser.
 */
export function ReformePrintSheet({
  reforme,
  inValidationList = false,
  history,
}: {
  reforme: ReformeDetail;
  inValidationList?: boolean;
  /** Printed after the attachments when given ("Imprimer avec l'historique"). */
  history?: TimelineLine[];
}) {
  const [root] = useState(() => {
    const element = document.createElement('div');
    element.className = 'reforme-print-root';
    return element;
  });
  useEffect(() => {
    document.body.appendChild(root);
    return () => root.remove();
  }, [root]);

  return createPortal(
    <article>
      <h1>Fiche de la réforme : {reforme.libref}</h1>
      <table>
        <tbody>
          {sheetFields(reforme).map((field) => (
            <tr key={field.label}>
              <th scope="row">{field.label}</th>
              <td>{field.value || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Objectifs et résultats attendus</h2>
      {reforme.objectifs.length === 0 && <p>{REFORME_MESSAGES.noObjectifs}</p>}
      {reforme.objectifs.map((objectif) => {
        const results = objectif.results ?? [];
        const percentage = objectivePercentage(results);
        return (
          <section key={objectif.id}>
            <h3>
              {objectif.libobjectif}
              {percentage !== undefined ? ` (${exactPercentageText(percentage)} validés)` : ''}
            </h3>
            {results.length > 0 && (
              <table>
                <thead>
                  <tr>
                    <th>Résultat attendu</th>
                    <th>Indicateur</th>
                    <th>Valeur cible</th>
                    <th>Valeur de référence</th>
                    <th>Statut</th>
                  </tr>
                </thead>
                <tbody>
                  {results.map((result) => (
                    <tr key={result.id}>
                      <td>{result.libresult}</td>
                      <td>{result.indicateur}</td>
                      <td>{Number(result.valeur_cible).toLocaleString('fr-FR')}</td>
                      <td>{Number(result.valeurref).toLocaleString('fr-FR')}</td>
                      <td>{resultStatusText(result.status, inValidationList)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        );
      })}
      <h2>{REFORME_MESSAGES.filesTitle}</h2>
      {reforme.files.length === 0 ? (
        <p>{REFORME_MESSAGES.noFiles}</p>
      ) : (
        <ul>
          {reforme.files.map((file) => (
            <li key={file.id}>{file.name_file}</li>
          ))}
        </ul>
      )}
      {history && (
        <>
          <h2>{TIMELINE_MESSAGES.tab}</h2>
          {history.length === 0 ? (
            <p>{TIMELINE_MESSAGES.empty}</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th>Date</th>
                  <th>Action</th>
                  <th>Par</th>
                  <th>Champ</th>
                  <th>Avant</th>
                  <th>Après</th>
                </tr>
              </thead>
              <tbody>
                {history.map((line) => (
                  <tr key={line.key}>
                    <td>{dateTime(line.at)}</td>
                    <td>
                      {TIMELINE_ACTIONS[line.action] ?? line.action} ({TIMELINE_KINDS[line.kind as TimelineKind] ?? line.kind})
                    </td>
                    <td>{line.actor?.name ?? TIMELINE_MESSAGES.system}</td>
                    <td>{line.field_label ?? '—'}</td>
                    <td>{line.before ?? '—'}</td>
                    <td>
                      {line.after ?? '—'}
                      {line.instruction ? ` — ${line.instruction}` : ''}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
      <p>Imprimé le {dateTime(new Date().toISOString())}</p>
    </article>,
    root,
  );
}
