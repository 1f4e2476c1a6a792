import { describe, expect, it } from 'vitest';
import { SIGN_IN_OPTIONS_ACTION, SIGN_IN_OPTIONS_ROUTE } from './directory.ts';
import { DIRECTORY_ROUTES } from './routes/directory.ts';
import { actionOf } from './routes/route.ts';

describe('the sign-in options route, zod-free for the sign-in page (issue 42)', () => {
  it('is the route table entry, with the action the table gives it', () => {
    expect(DIRECTORY_ROUTES.options).toMatchObject(SIGN_IN_OPTIONS_ROUTE);
    expect(actionOf(DIRECTORY_ROUTES.options)).toBe(SIGN_IN_OPTIONS_ACTION);
  });
});
