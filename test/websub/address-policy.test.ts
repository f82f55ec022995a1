import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/websub/address-policy.js';

describe('callback address classification (contract §6)', () => {
  it('refuses loopback, private, link-local, shared, reserved and multicast addresses', () => {
    for (const a of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '[::1]',
      '2001:db8::1',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('allows public unicast addresses', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPublicAddress(a), a).toBe(true);
    }
  });

  it('is false for anything that is not an address', () => {
    expect(isPublicAddress('localhost')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});

describe('IPv4 addresses in other IPv6 forms', () => {
  it('refuses IPv4-compatible and IPv4-translated forms of loopback and private addresses', () => {
    for (const a of ['::7f00:1', '::127.0.0.1', '::ffff:0:7f00:1', '::ffff:0:a00:1', '::a00:1']) expect(isPublicAddress(a), a).toBe(false);
  });
  it('still accepts a public IPv6 address', () => {
    expect(isPublicAddress('2606:4700:4700::1111')).toBe(true);
  });
});
