import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { trustedPeerCheck } from './request-id.ts';

const trustOf = (TRUST_PROXY: string) =>
  trustedPeerCheck(loadConfig({ TRUST_PROXY, JWT_SECRET: 'x'.repeat(40), METRICS_TOKEN: 'm'.repeat(40) }).trustProxy);

describe('trustedPeerCheck', () => {
  it('trusts the nearest peer as Fastify does with TRUST_PROXY: none, all, a number of hops, addresses, ranges, keywords', () => {
    expect(trustedPeerCheck(false)('127.0.0.1')).toBe(false);
    expect(trustOf('true')('203.0.113.7')).toBe(true);
    expect(trustOf('1')('203.0.113.7')).toBe(true);
    const listed = trustOf('10.0.0.1,192.168.0.0/16,2001:db8::/32,loopback,uniquelocal');
    for (const peer of ['10.0.0.1', '::ffff:10.0.0.1', '192.168.4.5', '2001:db8:1::7', '127.0.0.1', '::1', 'fd00::1', '172.16.0.9']) {
      expect(listed(peer), peer).toBe(true);
    }
    for (const peer of ['203.0.113.7', '2001:db9::1', 'fe80::1', undefined, 'pas-une-adresse']) expect(listed(peer), peer).toBe(false);
  });
});
