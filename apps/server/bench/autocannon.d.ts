/** The part of autocannon 9's programmatic API that the bench uses (the package ships no types). */
declare module 'autocannon' {
  interface AutocannonRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Called before each request: returns the request to send (e.g. with another path). */
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest;
  }

  interface AutocannonOptions {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: AutocannonRequest[];
  }

  interface Histogram {
    average: number;
    mean: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }

  interface AutocannonResult {
    /** Seconds actually run. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Histogram;
    requests: Histogram & { sent: number };
  }

  /** Without a callback: an event emitter that is also a promise of the result. */
  interface AutocannonInstance extends PromiseLike<AutocannonResult> {
    /** Every response, with the connection (client) that received it and its latency in ms. */
    on(event: 'response', listener: (client: object, statusCode: number, resBytes: number, responseTime: number) => void): this;
  }

  function autocannon(options: AutocannonOptions): AutocannonInstance;
  export default autocannon;
}
