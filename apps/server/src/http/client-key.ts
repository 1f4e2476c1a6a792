import { isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail read as two groups, a zone ignored). */
function groupsOf(address: string): number[] {
  const text = address
    .split('%')[0]
    .replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_tail, a, b, c, d) => `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`);
  const [head, tail] = text.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const [before, after] = [parse(head), parse(tail)];
  return tail === undefined ? before : [...before, ...Array(8 - before.length - after.length).fill(0), ...after];
}

/**
 * The client a per-client limit counts (sign-in, forgotten password, reset links, open-data downloads, the audit rows
 * of refusals): an IPv4 address as is, an IPv4-mapped IPv6 address as its IPv4, any other IPv6 address by its /64,
 * the smallest block a subscriber gets, so that one subscriber's 2^64 addresses are one client.
 * `clientKey('2001:db8::1')` -> `'2001:db8:0:0::/64'`; `clientKey('::ffff:192.0.2.7')` -> `'192.0.2.7'`.
 */
export function clientKey(ip: string): string {
  if (isIP(ip.split('%')[0]) !== 6) return ip;
  const groups = groupsOf(ip);
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6] >> 8, groups[6] & 255, groups[7] >> 8, groups[7] & 255].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The key of the request's client (`request.ip`, which TRUST_PROXY takes from the proxy's header). */
export const clientOf = (request: FastifyRequest): string => clientKey(request.ip);
