import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import { MESSAGES } from '@reformes/domain';
import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/under-pressure reads it per route: `ANSWERS_UNDER_PRESSURE` lets a route through. */
    pressureHandler?: (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => Promise<void> | void;
  }
}

/** What a client is told to wait before trying again, in seconds. */
export const PRESSURE_RETRY_AFTER_SECONDS = 10;

export interface PressureLimits {
  /**
   * Median event-loop delay (ms) over a check interval that counts as lag. Only lag sustained over
   * `sustainedChecks` intervals refuses requests: one long task (a test building a file, a big JSON parse) must not
   * turn the next request away, a loop that stays behind must.
   */
  maxEventLoopDelayMs: number;
  sustainedChecks: number;
  checkIntervalMs: number;
  /** Heap in use beyond which new requests are refused, before V8 runs out of memory. */
  maxHeapUsedBytes: number;
}

/** 90 % of the heap V8 may grow to (`--max-old-space-size`, 512 MB under `npm run serve`). */
export const DEFAULT_PRESSURE_LIMITS: PressureLimits = {
  maxEventLoopDelayMs: 200,
  sustainedChecks: 3,
  checkIntervalMs: 1_000,
  maxHeapUsedBytes: Math.round(getHeapStatistics().heap_size_limit * 0.9),
};

/**
 * A saturated server refuses new work with 503 and `Retry-After`, in French, rather than queue it until everything
 * times out: heap past its limit, or an event loop lagging for several seconds in a row. The liveness and readiness
 * routes opt out (their `pressureHandler` lets them through): a supervisor must not restart a server that is merely
 * busy.
 */
export async function registerPressureGuard(app: FastifyInstance, limits: PressureLimits = DEFAULT_PRESSURE_LIMITS): Promise<void> {
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();
  app.addHook('onClose', async () => lag.disable());
  let laggingChecks = 0;
  await app.register(underPressure, {
    maxHeapUsedBytes: limits.maxHeapUsedBytes,
    sampleInterval: 100,
    healthCheck: async () => {
      const median = lag.count > 0 ? lag.percentile(50) / 1e6 : 0;
      lag.reset();
      laggingChecks = median > limits.maxEventLoopDelayMs ? laggingChecks + 1 : 0;
      return laggingChecks < limits.sustainedChecks;
    },
    healthCheckInterval: limits.checkIntervalMs,
    pressureHandler: async (_request, reply) => {
      reply.header('Retry-After', String(PRESSURE_RETRY_AFTER_SECONDS));
      throw new AppError(503, MESSAGES.overloaded);
    },
  });
}

/** Route option of the routes that must answer under pressure too. */
export const ANSWERS_UNDER_PRESSURE = { pressureHandler: () => undefined } as const;
