import './zod-locale.ts';

export * from './access.ts';
export * from './auth.ts';
export * from './dashboard.ts';
export * from './menus.ts';
export * from './messages.ts';
export * from './permissions.ts';
export * from './public-reformes.ts';
export * from './reference.ts';
export * from './reforme.ts';
export * from './reforme-changes.ts';
export * from './reforme-rules.ts';
export * from './roles.ts';
export * from './search-text.ts';
export * from './suivi.ts';
export * from './workflow.ts';
