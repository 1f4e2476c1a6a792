/**
 * Build time only (apps/web/build/page-html.ts): the body of each page the server sends for a public screen. The
 * page's own script (app/pages/*.ts) fills it in with the same markup functions, without React (issue 34).
 */
import { forgotPasswordPageHtml, loginPageHtml } from '../features/auth/auth-markup.ts';
import { publicListPageHtml } from '../features/public/public-markup.ts';
import { publicReformePageHtml } from '../features/public/public-reforme-markup.ts';

const BODIES: Record<string, () => string> = {
  publicList: publicListPageHtml,
  publicReforme: publicReformePageHtml,
  login: loginPageHtml,
  forgotPassword: forgotPasswordPageHtml,
};

export function renderBody(name: string): string {
  const body = BODIES[name];
  if (!body) throw new Error(`prerender: no page named ${name}`);
  return body();
}
