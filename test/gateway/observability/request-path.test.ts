import { describe, expect, it } from 'vitest';
import { pathOf } from '../../../src/gateway/observability/request-path';

describe('pathOf', () => {
  it('reads the path of an absolute URL as new URL does, without its query or fragment', () => {
    for (const url of [
      'http://127.0.0.1:4000/graphql',
      'http://127.0.0.1:4000/ready?x=1',
      'http://localhost/metrics#top',
      'http://host:1/a/b?c=/d#e?f',
      'http://host:1',
      'http://host:1?q=1',
      'http://host:1?q=/x',
      'http://host:1#/frag',
    ]) {
      expect(pathOf(url), url).toBe(new URL(url).pathname);
    }
  });
});
