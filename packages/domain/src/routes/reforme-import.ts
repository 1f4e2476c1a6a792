import { IMPORT_RIGHT, importRowsSchema } from '../reforme-import.ts';
import { envelopeShape } from '../shapes/envelope.ts';
import { importFilePreviewShape, importPreviewShape } from '../shapes/reforme-import.ts';
import { routesOf } from './route.ts';

// A right of its own (admin has no "add" on reforms, yet the issue gives it the import), which an admin may revoke.
const access = IMPORT_RIGHT;

/**
 * Import of reforms from CSV or xlsx (issue 17): upload -> preview with every line's issues -> (lines fixed or
 * dropped on the screen, checked again) -> import of the reforms without issues in one transaction.
 */
export const REFORME_IMPORT_ROUTES = routesOf(['Import de réformes'], {
  // Multipart: its file is read from the stream, so no body here.
  preview: {
    method: 'POST',
    path: '/reformes/import/preview',
    access,
    summary: 'Lire un fichier CSV ou xlsx (multipart file) et en montrer les erreurs',
    answer: envelopeShape(importFilePreviewShape),
  },
  check: {
    method: 'POST',
    path: '/reformes/import/check',
    access,
    summary: 'Vérifier des lignes corrigées',
    body: importRowsSchema,
    answer: envelopeShape(importPreviewShape),
  },
  commit: {
    method: 'POST',
    path: '/reformes/import',
    status: 201,
    access,
    summary: 'Importer les réformes sans erreur (une transaction)',
    body: importRowsSchema,
    answer: envelopeShape(importPreviewShape),
  },
  templateCsv: {
    method: 'GET',
    path: '/reformes/import/template.csv',
    access,
    summary: "Modèle d'import (CSV)",
    file: 'text/csv; charset=utf-8',
  },
  templateXlsx: {
    method: 'GET',
    path: '/reformes/import/template.xlsx',
    access,
    summary: "Modèle d'import (Excel)",
    file: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
});
