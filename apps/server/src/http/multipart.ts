import { TEXT_MESSAGES } from '@reformes/domain';
import { AppError } from './app-error.ts';

/**
 * Runs `read` over a request's multipart body. What busboy cannot parse (no boundary, a body cut short, a broken
 * part header) throws plain errors without a status: they are the client's 400 here, not a 500. AppErrors and
 * the errors that carry a status (the 413 of a limit) pass through. `read` must only read the parts.
 */
export async function readingMultipart<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof AppError || typeof (error as { statusCode?: unknown } | null)?.statusCode === 'number') throw error;
    throw new AppError(400, TEXT_MESSAGES.malformedForm);
  }
}
