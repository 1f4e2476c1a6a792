/**
 * Reads the first item of `source` before a file is streamed: a failure there is still an error answer with
 * its status, not a file cut short after a 200. Returns the same items, the first one included.
 */
export async function readAhead<T>(source: AsyncGenerator<T>): Promise<AsyncGenerator<T>> {
  const first = await source.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* source;
  })();
}
