import { healthAnswer } from '../shapes/health.ts';
import { routesOf } from './route.ts';

/** Liveness and readiness, for supervisors and load balancers. */
export const HEALTH_ROUTES = routesOf(['Service'], {
  live: {
    method: 'GET',
    path: '/health',
    access: 'public',
    summary: 'Vivacité du service (sans accès à la base)',
    answer: healthAnswer,
  },
  ready: {
    method: 'GET',
    path: '/health/ready',
    access: 'public',
    summary: 'Disponibilité du service (base de données comprise)',
    answer: healthAnswer,
  },
});
