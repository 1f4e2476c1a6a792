import { DIRECTORY_OUTCOME_ELEMENT_ID, type DirectoryOutcome } from '@reformes/domain';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { STATE_COOKIE } from '../modules/directory/state-cookie.ts';

/** What the tests drive: an app's `inject` (a test app, a second instance on the same database). */
export interface Injector {
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** The `state` a start of dance (authorize or link) set in the browser's cookie. */
export function stateOf(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie'] ?? []].flat().find((cookie) => cookie.startsWith(`${STATE_COOKIE}=`));
  const state = header?.slice(STATE_COOKIE.length + 1).split(';')[0];
  if (!state) throw new Error(`no ${STATE_COOKIE} cookie in the answer (${response.statusCode} ${response.body.slice(0, 200)})`);
  return state;
}

/** The outcome the callback page carries (the JSON of its `directory-outcome` element). */
export function outcomeOf(response: LightMyRequestResponse): DirectoryOutcome {
  const match = new RegExp(`<script type="application/json" id="${DIRECTORY_OUTCOME_ELEMENT_ID}">([^<]*)</script>`).exec(response.body);
  if (!match) throw new Error(`no outcome in the callback page (${response.statusCode} ${response.body.slice(0, 300)})`);
  return JSON.parse(match[1]) as DirectoryOutcome;
}

/**
 * Follows the provider's redirects from `authorizationUrl` until it sends the browser back to `publicUrl`, carrying
 * the provider's own cookies between its pages as a browser does; answers the app's callback address.
 */
export async function throughProvider(authorizationUrl: string, publicUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 20; hop++) {
    if (url.startsWith(publicUrl)) return url;
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const split = pair.indexOf('=');
      jar.set(pair.slice(0, split), pair.slice(split + 1));
    }
    const location = response.headers.get('location');
    if (!location) throw new Error(`the provider stopped at ${url}: ${response.status} ${(await response.text()).slice(0, 300)}`);
    url = new URL(location, url).href;
  }
  throw new Error('the provider redirected more than 20 times');
}
