import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { loadConfig } from '../config.ts';

/**
 * A real S3 server (s3rver) for one test file, on 127.0.0.1 and a free port, its objects in a temporary folder.
 * `env` holds the S3_* settings of an app that keeps its documents there.
 */
export async function startS3Server() {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: 'documents' }] });
  const { port } = await server.run();
  const env = {
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: 'documents',
    S3_REGION: 'us-east-1',
    // The only key pair s3rver accepts.
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  return {
    env,
    settings: loadConfig(env).s3!,
    async close() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
