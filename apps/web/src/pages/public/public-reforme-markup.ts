import {
  exactPercentageText,
  formatEuro,
  longDate,
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
import { icon } from '../dom.ts';
import { type Html, html } from '../html.ts';
import { progressChartHtml } from './progress-chart-markup.ts';
import { publicShellHtml } from './public-markup.ts';

/** /accueil/reformes/:id: the way back, then the reform, drawn by public-reforme.ts once it arrives. */
export function publicReformePageHtml(): Html {
  return publicShellHtml(
    html`<a id="back-to-list" href="/accueil" class="small row-start">${icon('arrowLeft')}${PUBLIC_MESSAGES.backToList}</a><div id="reforme" class="stack"><div class="loading" role="status"><span class="spinner"></span><span class="visually-hidden">Chargement...</span></div></div>`,
  );
}

const term = (name: string, value: string) => html`<div><dt>${name}</dt><dd>${value}</dd></div>`;

/** The reform's sheet: heading and badges, general information, then each objective with its results and charts. */
export function reformeSheetHtml(reforme: PublicReformeDetail): Html {
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
  const badge = reforme.etat_label ? html`<span class="badge badge-outline">${reforme.etat_label}</span>` : '';
  const objectives =
    reforme.objectifs.length === 0 ? html`<p class="dimmed">${PUBLIC_MESSAGES.noObjectives}</p>` : reforme.objectifs.map(objectifHtml);
  return html`<div class="stack" style="gap:0.25rem"><h1>${reforme.libref}</h1><div class="row-start"><span class="badge badge-light">${typeLabel(reforme.typeref)}</span>${badge}</div></div><section class="panel" aria-labelledby="general-info"><h2 id="general-info" style="margin-bottom:0.75rem">${PUBLIC_MESSAGES.generalInfo}</h2><dl class="terms">${terms}</dl></section><section class="stack" aria-labelledby="objectives"><h2 id="objectives">${PUBLIC_MESSAGES.objectives}</h2>${objectives}</section>`;
}

/** An objective's progress (components/objective-progress.tsx): the bar speaks "33,3 %", the text is unrounded. */
function progressHtml(value: number | null, label: string): Html | '' {
  if (value === null) return '';
  const width = Math.max(0, Math.min(100, value));
  return html`<div class="progress" data-value="${value}"><div class="progress-bar"><span class="progress-value${value >= 100 ? ' done' : ''}" style="width:${width}%" role="progressbar" aria-label="Résultats validés : ${label}" aria-valuemin="0" aria-valuemax="100" aria-valuenow="${value}" aria-valuetext="${percentageText(value)}"></span></div><strong class="small" style="white-space:nowrap">${exactPercentageText(value)}</strong></div>`;
}

function resultRowHtml(result: PublicResultat): Html {
  const latest = result.latest
    ? html`${measureText(result.latest.valeur_realise)}<br><span class="xsmall dimmed">au ${longDate(result.latest.date)}</span>`
    : html`<span class="small dimmed">${PUBLIC_MESSAGES.noLatest}</span>`;
  const badge = result.status === 1 ? 'badge-teal' : 'badge-gray';
  return html`<tr><td>${result.libresult}</td><td>${result.indicateur}</td><td>${measureText(result.valeurref)}</td><td>${measureText(result.valeur_cible)}</td><td>${latest}</td><td>${result.latest ? rateText(result.latest.taux_realisat) : ''}</td><td><span class="badge ${badge}">${resultStatusText(result.status)}</span></td></tr>`;
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

function objectifHtml(objectif: PublicObjectif): Html {
  const id = `objectif-${objectif.id}`;
  const charted = objectif.results.filter((result) => result.suivi_results.length > 0);
  const results =
    objectif.results.length > 0
      ? html`<div class="table-scroll"><table class="table table-bordered" style="min-width:720px" aria-label="Résultats attendus : ${objectif.libobjectif}"><thead><tr>${RESULT_COLUMNS.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead><tbody>${objectif.results.map(resultRowHtml)}</tbody></table></div>`
      : '';
  const charts =
    charted.length > 0 ? html`<div class="charts">${charted.map((result) => progressChartHtml(result, `chart-${result.id}`))}</div>` : '';
  return html`<article class="panel stack" aria-labelledby="${id}"><div class="row" style="align-items:flex-start"><h3 id="${id}">${objectif.libobjectif}</h3>${progressHtml(objectif.percentage, objectif.libobjectif)}</div>${results}${charts}</article>`;
}
