import { describe, expect, it } from 'vitest';
import { AgentError, ProviderError, parseRetryAfter, providerErrorKindForStatus } from '../index.js';

describe('ProviderError', () => {
  it('derives retryable from the kind, and is recognised across copies', () => {
    expect(new ProviderError({ kind: 'rate_limit', message: 'slow down' }).retryable).toBe(true);
    expect(new ProviderError({ kind: 'auth', message: 'bad key' }).retryable).toBe(false);
    const error = new ProviderError({ kind: 'server', message: 'boom', status: 500 });
    expect(AgentError.isInstance(error)).toBe(true);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(ProviderError.isInstance(new AgentError('x', 'y'))).toBe(false);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'ProviderError',
      code: 'provider_server',
      message: 'boom',
      kind: 'server',
      status: 500,
    });
  });

  it.each([
    [401, 'auth'],
    [403, 'auth'],
    [400, 'invalid_request'],
    [404, 'invalid_request'],
    [429, 'rate_limit'],
    [529, 'overloaded'],
    [503, 'overloaded'],
    [500, 'server'],
    [502, 'server'],
  ])('HTTP %d is %s', (status, kind) => {
    expect(providerErrorKindForStatus(status)).toBe(kind);
  });

  it('parses Retry-After as seconds or a date', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    ).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
