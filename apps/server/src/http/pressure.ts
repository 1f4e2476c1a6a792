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
  /** Event-loop delay (ms) beyond which new requests are refused: the ones under way finish sooner. */
  maxEventLoopDelayMs: number;
  /** Heap in use beyond which new requests are refused, before V8 runs out of memory. */
  maxHeapUsedBytes: number;
}

/** 90 % of the heap V8 may grow to (`--max-old-space-size`, 512 MB under `npm run serve`). */
export const DEFAULT_PRESSURE_LIMITS: PressureLimits = {
  maxEventLoopDelayMs: 1_000,
  maxHeapUsedBytes: Math.round(getHeapStatistics().heap_size_limit * 0.9),
};

/**
 * A saturated server refuses new work with 503 and `Retry-After`, in French, rather than queue it until everything
 * times out. The liveness and readiness routes opt out (their `pressureHandler` lets them through): a supervisor
 * must not restart a server that is merely busy.
 */
export async function registerPressureGuard(app: FastifyInstance, limits: PressureLimits = DEFAULT_PRESSURE_LIMITS): Promise<void> {
  await app.register(underPressure, {
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxHeapUsedBytes: limits.maxHeapUsedBytes,
    sampleInterval: 100,
    pressureHandler: async (_request, reply) => {
      reply.header('Retry-After', String(PRESSURE_RETRY_AFTER_SECONDS));
      throw new AppError(503, MESSAGES.overloaded);
    },
  });
}

/** Route option of the routes that must answer under pressure too. */
export const ANSWERS_UNDER_PRESSURE = { pressureHandler: () => undefined } as const;
