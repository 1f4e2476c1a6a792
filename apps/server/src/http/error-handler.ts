import { codeOfStatus, ERROR_CODES, MESSAGES } from '@reformes/domain';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type ErrorsList } from './app-error.ts';
import { databaseFailureOf, pgErrorCode } from './pg-error.ts';

/** Postgres error codes that are the client's fault, and the status each deserves. */
const PG_CLIENT_ERRORS: Record<string, { status: number; message: string }> = {
  '23505': { status: 409, message: 'Un élément identique existe déjà.' },
  '23503': { status: 409, message: "Cet élément est lié à d'autres données : opération impossible." },
  '23001': { status: 409, message: "Cet élément est lié à d'autres données : opération impossible." },
  '23514': { status: 422, message: MESSAGES.invalidInput },
  '22P02': { status: 422, message: MESSAGES.invalidInput },
  '22003': { status: 422, message: 'Une valeur numérique est hors limites.' },
  '22007': { status: 422, message: 'Une date est invalide.' },
  '22008': { status: 422, message: 'Une date est invalide.' },
  '22001': { status: 422, message: 'Un texte est trop long.' },
  // A NUL byte or an encoding PostgreSQL refuses, and a value too large for an index row (54000, e.g. a long
  // label under a unique index): the schemas refuse both first, these are the last line.
  '22021': { status: 422, message: 'Un texte contient un caractère non autorisé.' },
  '22P05': { status: 422, message: 'Un texte contient un caractère non autorisé.' },
  '54000': { status: 422, message: 'Une valeur envoyée est trop grande.' },
};

/** Fastify's own 4xx errors, reworded in French. */
const FASTIFY_MESSAGES: Record<number, string> = {
  400: 'La requête est mal formée.',
  404: MESSAGES.routeNotFound,
  405: 'Méthode non autorisée.',
  406: 'Format de réponse non disponible.',
  // A JSON body over `bodyLimit`, too many multipart parts: a file over its own limit gets `fileTooLarge` instead.
  413: 'La requête est trop volumineuse.',
  415: 'Type de contenu non pris en charge.',
  429: MESSAGES.tooManyRequests,
};

function errorsListOf(error: FastifyError & { validation: Array<{ instancePath: string; message?: string }> }): ErrorsList {
  const list: ErrorsList = {};
  for (const issue of error.validation) {
    const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || error.validationContext || 'body';
    const messages = list[key] ?? [];
    if (issue.message && !messages.includes(issue.message)) messages.push(issue.message);
    list[key] = messages;
  }
  return list;
}

/**
 * One place turns every failure into `{message, errorsList?, code}` (code: ERROR_CODES, always): messages only for 4xx,
 * a generic French message for the rest (logged with the request id), never a stack or SQL; a failed query is
 * logged without its bind values.
 */
export function registerErrorHandler(app: FastifyInstance) {
  // An error answer sent by hand, not thrown (the unknown routes' 404 of app.ts, the health check's 503 while
  // draining) gets its code here, so that `code` is on every refusal: an unknown route's is ROUTE_NOT_FOUND.
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    if (reply.statusCode < 400 || typeof payload !== 'object' || payload === null || 'code' in payload || !('message' in payload))
      return payload;
    return { ...payload, code: request.is404 ? ERROR_CODES.routeNotFound : codeOfStatus(reply.statusCode) };
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error }, error.message);
      if (error.headers) reply.headers(error.headers);
      return reply
        .status(error.statusCode)
        .send({ message: error.message, ...(error.errorsList ? { errorsList: error.errorsList } : {}), code: error.code });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(422).send({ message: MESSAGES.invalidInput, errorsList: errorsListOf(error), code: ERROR_CODES.invalidInput });
    }
    const pgError = PG_CLIENT_ERRORS[pgErrorCode(error) ?? ''];
    if (pgError) {
      request.log.info({ db: databaseFailureOf(error) }, 'database refused the request');
      return reply.status(pgError.status).send({ message: pgError.message, code: codeOfStatus(pgError.status) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // An unknown route is told from a missing element (NOT_FOUND, thrown by the modules) by its own code.
      const code = status === 404 ? ERROR_CODES.routeNotFound : codeOfStatus(status);
      return reply.status(status).send({ message: FASTIFY_MESSAGES[status] ?? MESSAGES.invalidInput, code });
    }
    // A failed query is logged by its SQL state and message: its bind values never reach the log.
    const failure = databaseFailureOf(error);
    request.log.error(failure ? { db: failure } : { err: error }, 'unhandled error');
    return reply.status(500).send({ message: MESSAGES.internalError, code: ERROR_CODES.internalError });
  });
}
