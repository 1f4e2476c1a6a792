export * from './access.ts';
export * from './reference.ts';
export * from './reformes.ts';
export * from './users.ts';
