import {
  exactPercentageText,
  measureText,
  PUBLIC_MESSAGES,
  type PublicObjectif,
  type PublicReformeDetail,
  type PublicResultat,
  percentageText,
  rateText,
  resultStatusText,
  typeLabel,
} from '@reformes/domain';
import { escapeHtml, icon } from '../../components/dom/html.ts';
import { formatEuro, longDate } from '../../components/french-format.ts';
import { progressChartHtml } from './progress-chart-markup.ts';
import { publicShellHtml } from './public-markup.ts';

/** /accueil/reformes/:id: the way back, then the reform, drawn by public-reforme.ts once it arrives. */
export function publicReformePageHtml(): string {
  return publicShellHtml(
    [
      `<a id="back-to-list" href="/accueil" class="small row-start">${icon('arrowLeft')}${escapeHtml(PUBLIC_MESSAGES.backToList)}</a>`,
      '<div id="reforme" class="stack"><div class="loading" role="status"><span class="spinner"></span><span class="visually-hidden">Chargement...</span></div></div>',
    ].join(''),
  );
}

const term = (name: string, value: string) => `<div><dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd></div>`;

/** The reform's sheet: heading and badges, general information, then each objective with its results and charts. */
export function reformeSheetHtml(reforme: PublicReformeDetail): string {
  const terms = [
    term('Structure', `${reforme.structure.designation} (${reforme.structure.sigl})`),
    term('Nature', reforme.nature.libnature),
    term('Couverture', reforme.couverture.lib_couvert),
    term("Période d'exécution", reforme.periodexe),
    term('Date début', longDate(reforme.date_debut)),
    term('Date fin', longDate(reforme.date_fin)),
    term('Objectif global', reforme.objectif_glob),
    term('Population cible', reforme.popul_cible),
    term('Structures impliquées', reforme.struct_impl),
    reforme.cadreinst_mor ? term('Cadre institutionnel', reforme.cadreinst_mor) : '',
    reforme.montant_prevu !== null ? term('Montant prévu', formatEuro(reforme.montant_prevu)) : '',
    reforme.montant_trealise !== null ? term('Montant réalisé', formatEuro(reforme.montant_trealise)) : '',
  ];
  return [
    '<div class="stack" style="gap:0.25rem">',
    `<h1>${escapeHtml(reforme.libref)}</h1>`,
    `<div class="row-start"><span class="badge badge-light">${escapeHtml(typeLabel(reforme.typeref))}</span>${reforme.etat_label ? `<span class="badge badge-outline">${escapeHtml(reforme.etat_label)}</span>` : ''}</div>`,
    '</div>',
    '<section class="panel" aria-labelledby="general-info">',
    `<h2 id="general-info" style="margin-bottom:0.75rem">${escapeHtml(PUBLIC_MESSAGES.generalInfo)}</h2>`,
    `<dl class="terms">${terms.join('')}</dl>`,
    '</section>',
    '<section class="stack" aria-labelledby="objectives">',
    `<h2 id="objectives">${escapeHtml(PUBLIC_MESSAGES.objectives)}</h2>`,
    reforme.objectifs.length === 0
      ? `<p class="dimmed">${escapeHtml(PUBLIC_MESSAGES.noObjectives)}</p>`
      : reforme.objectifs.map(objectifHtml).join(''),
    '</section>',
  ].join('');
}

/** An objective's progress (components/objective-progress.tsx): the bar speaks "33,3 %", the text is unrounded. */
function progressHtml(value: number | null, label: string): string {
  if (value === null) return '';
  const width = Math.max(0, Math.min(100, value));
  return [
    `<div class="progress" data-value="${value}">`,
    `<div class="progress-bar"><span class="progress-value${value >= 100 ? ' done' : ''}" style="width:${width}%" role="progressbar" aria-label="${escapeHtml(`Résultats validés : ${label}`)}" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${value}" aria-valuetext="${escapeHtml(percentageText(value))}"></span></div>`,
    `<strong class="small" style="white-space:nowrap">${escapeHtml(exactPercentageText(value))}</strong>`,
    '</div>',
  ].join('');
}

function resultRowHtml(result: PublicResultat): string {
  const latest = result.latest
    ? `${escapeHtml(measureText(result.latest.valeur_realise))}<br><span class="xsmall dimmed">au ${escapeHtml(longDate(result.latest.date))}</span>`
    : `<span class="small dimmed">${escapeHtml(PUBLIC_MESSAGES.noLatest)}</span>`;
  const badge = result.status === 1 ? 'badge-teal' : 'badge-gray';
  const cells = [
    escapeHtml(result.libresult),
    escapeHtml(result.indicateur),
    escapeHtml(measureText(result.valeurref)),
    escapeHtml(measureText(result.valeur_cible)),
    latest,
    result.latest ? escapeHtml(rateText(result.latest.taux_realisat)) : '',
    `<span class="badge ${badge}">${escapeHtml(resultStatusText(result.status))}</span>`,
  ];
  return `<tr>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`;
}

const RESULT_COLUMNS = [
  'Résultat attendu',
  'Indicateur',
  'Valeur de référence',
  'Valeur cible',
  'Dernière valeur réalisée',
  'Taux de réalisation',
  'Statut',
];

function objectifHtml(objectif: PublicObjectif): string {
  const id = `objectif-${objectif.id}`;
  const charted = objectif.results.filter((result) => result.suivi_results.length > 0);
  return [
    `<article class="panel stack" aria-labelledby="${id}">`,
    `<div class="row" style="align-items:flex-start"><h3 id="${id}">${escapeHtml(objectif.libobjectif)}</h3>${progressHtml(objectif.percentage, objectif.libobjectif)}</div>`,
    objectif.results.length > 0
      ? [
          '<div class="table-scroll">',
          `<table class="table table-bordered" style="min-width:720px" aria-label="${escapeHtml(`Résultats attendus : ${objectif.libobjectif}`)}">`,
          `<thead><tr>${RESULT_COLUMNS.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('')}</tr></thead>`,
          `<tbody>${objectif.results.map(resultRowHtml).join('')}</tbody>`,
          '</table></div>',
        ].join('')
      : '',
    charted.length > 0
      ? `<div class="charts">${charted.map((result) => progressChartHtml(result, `chart-${result.id}`)).join('')}</div>`
      : '',
    '</article>',
  ].join('');
}
