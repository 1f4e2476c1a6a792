/**
 * Runs at most `max` works at once; the others wait their turn, first come first served. With `waiting`, a work that
 * finds that many already in line is refused at once with `refusal()` rather than queued (a bounded queue).
 * `const withSlot = createSlots(2); await withSlot(() => hash(password))`.
 */
export function createSlots(max: number, bound?: { waiting: number; refusal: () => Error }): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (running >= max) {
      if (bound && waiting.length >= bound.waiting) throw bound.refusal();
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else running += 1;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      // The slot passes straight to the next in line, so `running` never drops and rises in between.
      if (next) next();
      else running -= 1;
    }
  };
}
