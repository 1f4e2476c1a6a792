/**
 * Copies the documents of STORAGE_DIR (or of the folder given) into the S3 bucket of the S3_* settings, and checks
 * every copy by SHA-256:
 *   npm run copy-documents -- [<dossier des documents>]
 * Run it once before starting the instances with S3_* set, and again after any upload made meanwhile: documents
 * already in the bucket with the same bytes are not sent again. Exits with 1 when any document failed.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { copyDocuments } from '../storage/copy-documents.ts';
import { createFileStore } from '../storage/file-store.ts';
import { createS3Store } from '../storage/s3-store.ts';

const { positionals } = parseArgs({ allowPositionals: true });
const config = loadConfig();
if (!config.s3) {
  console.error(
    'Les réglages S3 (S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) sont requis : ils désignent le compartiment de destination.',
  );
  process.exit(1);
}
const from = path.resolve(positionals[0] ?? config.storageDir);
console.log(`Copie des documents de ${from} vers le compartiment S3 ${config.s3.bucket}…`);
const report = await copyDocuments(createFileStore(from), createS3Store(config.s3), (key, outcome) => {
  if (outcome === 'failed') console.error(`  échec : ${key}`);
});
for (const { key, reason } of report.failed) console.error(`${key} : ${reason}`);
console.log(
  `${report.copied} documents copiés et vérifiés (SHA-256), ${report.present} déjà présents à l'identique, ${report.failed.length} en échec.`,
);
process.exit(report.failed.length > 0 ? 1 : 0);
