import { expect } from 'chai';
import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import { clientAddressKey } from '../../../api/middleware/rate-limit';

describe('rate limit: the client address key', () => {
  it('when the address is IPv4, IPv4-mapped or IPv6 then the key is the one express-rate-limit makes', () => {
    for (const ip of [
      '127.0.0.1',
      '10.0.0.255',
      '::ffff:127.0.0.1',
      '::FFFF:192.168.1.20',
      '::ffff:7f00:1',
      '::1',
      '::',
      '2001:db8:abcd:12::1',
      '2001:db8:abcd:1200:ffff::9',
      'fe80::1',
      '::127.0.0.1',
      '',
    ]) {
      expect(clientAddressKey({ ip } as Request), ip).to.equal(ipKeyGenerator(ip));
    }
  });
});
