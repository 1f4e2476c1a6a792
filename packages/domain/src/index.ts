import './zod-locale.ts';
export * from './auth.ts';
export * from './dashboard.ts';
export * from './menus.ts';
export * from './messages.ts';
export * from './permissions.ts';
export * from './reference.ts';
export * from './reforme-rules.ts';
export * from './roles.ts';
