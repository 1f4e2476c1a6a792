/**
 * Build time only (apps/web/build/page-html.ts): the body of each page the server sends for a public screen. The
 * page's own script (pages/entries/*.ts) fills it in with the same markup functions, without React (issue 34).
 */
import { forgotPasswordPageHtml, loginPageHtml } from './auth/auth-markup.ts';
import type { Html } from './html.ts';
import { publicListPageHtml } from './public/public-markup.ts';
import { publicReformePageHtml } from './public/public-reforme-markup.ts';

const BODIES: Record<string, () => Html> = {
  publicList: publicListPageHtml,
  publicReforme: publicReformePageHtml,
  login: loginPageHtml,
  forgotPassword: forgotPasswordPageHtml,
};

export function renderBody(name: string): string {
  const body = BODIES[name];
  if (!body) throw new Error(`prerender: no page named ${name}`);
  return body().toString();
}
