import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key.ts';

describe('clientKey (issue 40, item 8)', () => {
  it('keys IPv4 as is, an IPv4-mapped IPv6 address as its IPv4, and IPv6 by its /64, whatever its spelling', () => {
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('::FFFF:c000:0207')).toBe('192.0.2.7');
    for (const address of ['2001:db8::1', '2001:db8::2', '2001:0DB8:0000:0000:ffff:1:2:3', '2001:db8:0:0:1::', '2001:db8::1%eth0']) {
      expect(clientKey(address), address).toBe('2001:db8:0:0::/64');
    }
    expect(clientKey('2001:db8:0:1::1')).toBe('2001:db8:0:1::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('64:ff9b::192.0.2.7')).toBe('64:ff9b:0:0::/64');
    expect(clientKey('')).toBe('');
  });
});
