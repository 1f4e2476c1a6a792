/**
 * Paged lists (docs/architecture.md): one entry point, `keptPage`, that a list calls with its source, conditions,
 * order and row loader. Below the modules: this folder imports db/, config and @reformes/domain only.
 */
export { ANCHOR_STEP } from './anchors.ts';
export { type KeptPageSpec, keptPage, type ListSource, lastPageOf, mapRows, type Page, type PageRowsAt, pageOf } from './kept-page.ts';
export { progressList, progressWithReformesList, reformesList } from './sources.ts';
