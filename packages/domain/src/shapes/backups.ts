import { z } from '../zod-locale.ts';
import { envelopeShape, type Shape, timestamp } from './envelope.ts';

/** A backup file (spec §2.9 "Sauvegardes"): a database dump or an archive of the documents. */
export const backupShape = z.object({
  id: z.number(),
  name: z.string(),
  type: z.string(),
  /** In bytes. */
  size: z.number(),
  is_active: z.boolean(),
  created_at: timestamp,
});
export type Backup = Shape<typeof backupShape>;
export const backupAnswer = envelopeShape(backupShape);
/** `GET api/save-db`: the backups just made (database and documents). */
export const backupsAnswer = envelopeShape(z.array(backupShape));
