import type { FastifyRequest } from 'fastify';

const REDACTED = '[Redacted]';

/**
 * Query parameters whose value is a credential: `?token=…`, `?reset=…`, `?code=…`, `?password=…`, `?refresh_token=…`,
 * and the directory's callback (issue 42): its `code`, its `state` (the browser's cookie holds the same), `id_token_hint`.
 */
const SECRET_PARAM = /token|password|secret|^reset$|^code$|^key$|^state$|^nonce$|^code_verifier$/i;

/** Path segments that are credentials: the mailed recovery link is `/auth/recovery-password/{token}`. */
const SECRET_SEGMENT = /\/(recovery-password|reset-password)\/[^/]+/gi;

/** Objects a log call may carry whose fields are credentials (pino's redaction, after the serializers below). */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...['password', 'token', 'refresh_token', 'access_token'].flatMap((field) => [field, `*.${field}`]),
];

/**
 * A URL as it may be logged: credentials in the path or the query string replaced.
 * `redactUrl('/auth/recovery-password/abc?x=1&token=def')` -> `/auth/recovery-password/[Redacted]?x=1&token=[Redacted]`
 */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const pathname = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(SECRET_SEGMENT, `/$1/${REDACTED}`);
  if (queryAt === -1) return pathname;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=')[0];
      return SECRET_PARAM.test(safeDecode(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${pathname}?${query}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return text;
  }
}

/**
 * Fastify's logger: Fastify's own request fields, with the URL redacted and no header (tokens travel in
 * Authorization); `stream` replaces stdout (tests read every line).
 */
export function loggerOptions(level: string, stream?: { write(line: string): void }) {
  return {
    level,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    ...(stream ? { stream } : {}),
  };
}
