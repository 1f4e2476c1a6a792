// s3rver ships no types: the part the tests use (test/s3-server.ts).
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory?: string;
      configureBuckets?: Array<{ name: string }>;
    });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
  export = S3rver;
}
