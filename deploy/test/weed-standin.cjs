/**
 * A stand-in for SeaweedFS's `weed` (npm run test:deploy, where its image cannot be pulled), so that
 * deploy/compose.yaml runs unchanged: the parts of its command line that compose.yaml uses.
 * - `weed server -dir=D -s3 -s3.port=P …`: an S3 server (s3rver) on port P, objects under D.
 * - `weed shell -master=H:9333` reading commands on stdin: `s3.bucket.list` prints the buckets, `s3.bucket.create
 *   -name B` creates one, `s3.configure …` is accepted (s3rver has one key pair, S3RVER / S3RVER).
 */
const [command, ...args] = process.argv.slice(2);
const option = (name, fallback) => args.find((arg) => arg.startsWith(`-${name}=`))?.split('=')[1] ?? fallback;

if (command === 'server') {
  const S3rver = require('s3rver');
  const server = new S3rver({
    address: '0.0.0.0',
    port: Number(option('s3.port', '8333')),
    directory: option('dir', '/data'),
    // Path-style only: s3rver would read the host name `s3` as a bucket (virtual-host style).
    vhostBuckets: false,
    silent: true,
  });
  server.run().then(() => console.log('s3rver prêt'));
  process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
} else if (command === 'shell') {
  const host = option('master', 'localhost:9333').split(':')[0];
  const base = `http://${host}:8333`;
  let input = '';
  process.stdin.on('data', (chunk) => {
    input += chunk;
  });
  process.stdin.on('end', async () => {
    try {
      for (const line of input
        .split('\n')
        .map((text) => text.trim())
        .filter(Boolean)) {
        const [verb, ...rest] = line.split(/\s+/);
        if (verb === 's3.bucket.list') {
          const xml = await (await fetch(`${base}/`)).text();
          for (const [, name] of xml.matchAll(/<Name>([^<]+)<\/Name>/g)) console.log(`  ${name}`);
        } else if (verb === 's3.bucket.create') {
          const name = rest[rest.indexOf('-name') + 1];
          const answer = await fetch(`${base}/${encodeURIComponent(name)}`, { method: 'PUT' });
          if (!answer.ok && answer.status !== 409) throw new Error(`création du compartiment ${name} : ${answer.status}`);
        } else if (verb !== 's3.configure') {
          throw new Error(`commande inconnue du remplaçant : ${verb}`);
        }
      }
    } catch (error) {
      console.error(error.message);
      process.exit(1);
    }
  });
} else {
  console.error(`weed (remplaçant) : ${command} n'est pas pris en charge`);
  process.exit(2);
}
