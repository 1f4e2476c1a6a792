import { importRowSchema } from '../reforme-import.ts';
import { z } from '../zod-locale.ts';

export const importIssueShape = z.object({ line: z.number(), column: z.string(), message: z.string() });

/** What an import would do (or did): reforms found, those without issues and their lines, every issue. */
export const importPreviewShape = z.object({
  reformes: z.number(),
  valid: z.number(),
  validLines: z.number(),
  issues: z.array(importIssueShape),
});
export type ImportPreview = z.infer<typeof importPreviewShape>;

/** The preview of an uploaded file also gives its lines back, for the screen to show, fix or drop them. */
export const importFilePreviewShape = importPreviewShape.extend({ rows: z.array(importRowSchema) });
export type ImportFilePreview = z.infer<typeof importFilePreviewShape>;
