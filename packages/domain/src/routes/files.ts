import type { Action } from '../permissions.ts';
import { idParamsSchema } from '../reference.ts';
import { envelopeShape, messageShape } from '../shapes/envelope.ts';
import { uploadedFileShape } from '../shapes/reformes.ts';
import { routesOf } from './route.ts';

const can = <A extends Action>(action: A) => ({ feature: 'files', action }) as const;

/** PDF attachments (spec §7 `files/`): uploaded before or after the reform exists, served only within scope. */
export const FILES_ROUTES = routesOf(['Fichiers joints'], {
  // Multipart: its fields are read from the stream, so no body here.
  upload: {
    method: 'POST',
    path: '/files',
    status: 201,
    access: can('add'),
    summary: 'Charger un PDF (multipart name_file, file, reforme_id?)',
    answer: envelopeShape(uploadedFileShape),
  },
  // The `chemin` of every attachment (file-chemin.ts) points here.
  show: {
    method: 'GET',
    path: '/files/:id',
    access: can('show'),
    summary: 'Voir le fichier (PDF)',
    params: idParamsSchema,
    file: 'application/pdf',
  },
  remove: {
    method: 'DELETE',
    path: '/files/:id',
    access: can('delete'),
    summary: 'Retirer un fichier',
    params: idParamsSchema,
    answer: messageShape,
  },
});
