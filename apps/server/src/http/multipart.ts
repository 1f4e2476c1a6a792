import { TEXT_MESSAGES } from '@reformes/domain';
import type { FastifyRequest } from 'fastify';
import { AppError, fileTooLarge } from './app-error.ts';

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

/** A name the user gives or the browser sends that carries a path ("../", "a/b", "a\b"). */
export function hasPath(name: string): boolean {
  return /[/\\]|\.\./.test(name);
}

export interface UploadRules {
  /** Past this size the file is refused with a 413 naming the limit. */
  maxBytes: number;
  /** The file part to keep; the others are read and dropped. Without it, the one file part of the form. */
  field?: string;
  /** The answer to a request that is not multipart at all. */
  notMultipart: () => AppError;
  /** Refuses the kept file by its name, before its bytes are read. */
  checkFilename?: (filename: string) => void;
}

export interface Upload {
  /** The text fields of the form. */
  fields: Record<string, string>;
  /** The file, as sent (possibly empty); its type is the caller's to check, by its first bytes. */
  file?: { content: Buffer; filename: string };
}

/**
 * Reads an upload form (the PDF attachments, the signature): its text fields and its one file, within the
 * size limit, with the multipart errors of `readingMultipart`. `readUpload(request, { maxBytes, field: 'signature', notMultipart })`.
 */
export async function readUpload(request: FastifyRequest, rules: UploadRules): Promise<Upload> {
  if (!request.isMultipart()) throw rules.notMultipart();
  return readingMultipart(async () => {
    const fields: Record<string, string> = {};
    let file: Upload['file'];
    // preservePath: busboy would otherwise strip "../" from the file name before a check could refuse it.
    for await (const part of request.parts({ preservePath: true, limits: { fileSize: rules.maxBytes, files: 1 } })) {
      if (part.type !== 'file') {
        fields[part.fieldname] = String(part.value ?? '');
      } else if (rules.field !== undefined && part.fieldname !== rules.field) {
        await part.toBuffer();
      } else {
        rules.checkFilename?.(part.filename);
        const content = await part.toBuffer().catch((error: { code?: string }) => {
          if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(rules.maxBytes);
          throw error;
        });
        file = { content, filename: part.filename };
      }
    }
    return { fields, file };
  });
}
