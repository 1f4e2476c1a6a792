export * from './access.ts';
export * from './audit.ts';
export * from './history.ts';
export * from './jobs.ts';
export * from './reference.ts';
export * from './reformes.ts';
export * from './throttling.ts';
export * from './users.ts';
