/**
 * Waiting and a steady load through HTTP, without Vitest: the tests of restarts and upgrades (haproxy.ts) and
 * `npm run test:deploy` (scripts/deploy/test-deploy.ts) share them.
 */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** One request of a load: resolves if it got what it expected, throws why not otherwise. */
export type Attempt = (client: number) => Promise<void>;

/** A GET of `url` that expects a 200. */
export const reading =
  (url: string): Attempt =>
  async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET ${url}: ${response.status}`);
  };

/**
 * `clients` clients each running `attempt` in a loop until `stop`: every attempt that throws (an unexpected status,
 * a network error) is a failure, noted with its start time.
 */
export function steadyLoad(clients: number, attempt: Attempt) {
  let running = true;
  let succeeded = 0;
  const failures: string[] = [];
  const client = async (index: number) => {
    while (running) {
      const startedAt = Date.now();
      try {
        await attempt(index);
        succeeded++;
      } catch (error) {
        failures.push(`${new Date(startedAt).toISOString()} ${(error as Error).cause ?? (error as Error).message}`);
      }
      await sleep(10);
    }
  };
  const done = Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  return {
    async stop() {
      running = false;
      await done;
      return { succeeded, failures };
    },
  };
}
