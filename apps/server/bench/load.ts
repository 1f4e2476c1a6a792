/** Concurrent load on a listening server with autocannon, and a look at what one response holds. */
import autocannon from 'autocannon';

export interface LoadSpec {
  name: string;
  method: 'GET' | 'POST';
  /** A fixed path, or one drawn again before every request. */
  path: string | (() => string);
  headers?: Record<string, string>;
  body?: unknown;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  name: string;
  connections: number;
  seconds: number;
  /** Responses received within the run. */
  requests: number;
  reqPerSec: number;
  /** Percentiles in ms over the responses AND the requests still unanswered when the run stopped (see runLoad). */
  p50: number;
  p99: number;
  max: number;
  /** Requests cut by the end of the run, and the age of the oldest one (ms). */
  unfinished: number;
  oldestUnfinished: number;
  statusCounts: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
}

const TIMEOUT_SECONDS = 60;

function requestOf(spec: LoadSpec) {
  const headers: Record<string, string> = { ...spec.headers };
  let body: string | undefined;
  if (spec.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(spec.body);
  }
  return { method: spec.method, headers, body };
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * A closed loop of `connections` clients for `seconds`. autocannon drops the requests still waiting
 * when the time is up, so on a slow route its percentiles would only describe the lucky requests
 * that came back (a health check stuck 5 s behind a saturated pool would not count at all). Each
 * connection sends its next request as soon as the previous answer arrives, so the age of the
 * request it still waits for is known: it is counted as a latency of at least that age.
 */
export async function runLoad(baseUrl: string, spec: LoadSpec): Promise<LoadResult> {
  const request = requestOf(spec);
  const { path } = spec;
  const instance = autocannon({
    url: baseUrl,
    connections: spec.connections,
    duration: spec.seconds,
    timeout: TIMEOUT_SECONDS,
    requests: [
      typeof path === 'string'
        ? { ...request, path }
        : { ...request, path: path(), setupRequest: (current) => ({ ...current, path: path() }) },
    ],
  });
  const startedAt = performance.now();
  const latencies: number[] = [];
  const lastAnswer = new Map<object, number>();
  instance.on('response', (client, _statusCode, _bytes, responseTime) => {
    latencies.push(responseTime);
    lastAnswer.set(client, performance.now());
  });
  const result = await instance;
  const endedAt = performance.now();
  const waiting = [
    ...[...lastAnswer.values()].map((at) => endedAt - at),
    ...Array.from({ length: Math.max(0, spec.connections - lastAnswer.size) }, () => endedAt - startedAt),
  ];
  const sorted = [...latencies, ...waiting].sort((a, b) => a - b);
  const completedP99 = percentile(
    [...latencies].sort((a, b) => a - b),
    99,
  );
  const statusCounts = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, stat]) => [code, stat.count]));
  const requests = result.requests.total;
  return {
    name: spec.name,
    connections: spec.connections,
    seconds: result.duration,
    requests,
    // Completed responses over the time run: meaningful even when a request takes longer than a second.
    reqPerSec: result.duration > 0 ? requests / result.duration : 0,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    // Only the requests that waited longer than the slow answers (and than 20 ms) are worth a mention: a
    // fast route always has `connections` requests in flight at the end, a few ms old.
    unfinished: waiting.filter((age) => age > Math.max(completedP99, 20)).length,
    oldestUnfinished: Math.max(0, ...waiting),
    statusCounts,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

export interface Probe {
  status: number;
  ms: number;
  bytes: number;
  /** What the answer holds: a paginated envelope, a plain list, an object. */
  shape: string;
  /** The start of the body when the status is not 2xx. */
  error?: string;
}

function describe(json: unknown): string {
  const data = (json as { data?: unknown } | null)?.data;
  if (Array.isArray(data)) return `plain list of ${data.length} rows${nestedOf(data)}`;
  if (data && typeof data === 'object') {
    const page = data as { data?: unknown; total?: number; current_page?: number; last_page?: number; per_page?: number };
    if (Array.isArray(page.data)) {
      return `paginated: ${page.data.length} rows, page ${page.current_page}/${page.last_page}, per_page ${page.per_page}, total ${page.total}${nestedOf(page.data)}`;
    }
    return `object {${Object.keys(data).slice(0, 8).join(', ')}}`;
  }
  return typeof json;
}

/** For nested answers (reforms > objectifs > results > follow-ups): how many of each. */
function nestedOf(rows: unknown[]): string {
  let objectifs = 0;
  let results = 0;
  let suivis = 0;
  for (const row of rows as Array<{ objectifs?: Array<{ results?: Array<{ suivi_results?: unknown[] }> }> }>) {
    for (const objectif of row.objectifs ?? []) {
      objectifs++;
      for (const result of objectif.results ?? []) {
        results++;
        suivis += result.suivi_results?.length ?? 0;
      }
    }
  }
  return objectifs ? ` (nested: ${objectifs} objectifs, ${results} results, ${suivis} follow-ups)` : '';
}

/** One request, timed, to record what the endpoint returns before it is loaded. */
export async function probe(baseUrl: string, spec: LoadSpec): Promise<Probe> {
  const request = requestOf(spec);
  const path = typeof spec.path === 'string' ? spec.path : spec.path();
  const started = performance.now();
  const response = await fetch(baseUrl + path, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(TIMEOUT_SECONDS * 1000),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  const bytes = Buffer.byteLength(text);
  if (response.status < 200 || response.status > 299)
    return { status: response.status, ms, bytes, shape: 'error', error: text.slice(0, 300) };
  let shape: string;
  try {
    shape = describe(JSON.parse(text));
  } catch {
    shape = 'not JSON';
  }
  return { status: response.status, ms, bytes, shape };
}

/**
 * Requests that were still queued in the server when a load stopped keep the database busy: waits
 * until a cheap database-bound request answers fast twice in a row (at most `maxSeconds`).
 * Returns the seconds waited.
 */
export async function drain(baseUrl: string, maxSeconds = 180): Promise<number> {
  const started = performance.now();
  let fast = 0;
  while (fast < 2 && performance.now() - started < maxSeconds * 1000) {
    const t0 = performance.now();
    try {
      await (await fetch(`${baseUrl}/api/v1/reformes/public/filters`, { signal: AbortSignal.timeout(maxSeconds * 1000) })).arrayBuffer();
    } catch {
      // counted as slow
    }
    fast = performance.now() - t0 < 250 ? fast + 1 : 0;
    if (fast < 2) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (performance.now() - started) / 1000;
}
