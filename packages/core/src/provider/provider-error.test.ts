import { describe, expect, it } from 'vitest';
import {
  AgentError,
  isContextOverflowMessage,
  isProviderErrorKind,
  ProviderError,
  parseRetryAfter,
  providerErrorKindForStatus,
} from '../index.js';

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

  it('every kind is a kind, context_overflow included', () => {
    for (const kind of ['rate_limit', 'context_overflow', 'fatal'])
      expect(isProviderErrorKind(kind)).toBe(true);
    expect(isProviderErrorKind('too_long')).toBe(false);
  });
});

describe('ProviderError: the figures of a context overflow', () => {
  const overflow = (message: string) => new ProviderError({ kind: 'context_overflow', message });

  it.each([
    [
      'OpenAI',
      "openai: HTTP 400 This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
      { contextLimit: 128000, promptTokens: 130412, reservedOutputTokens: undefined },
    ],
    [
      'OpenAI and vLLM, with the completion counted',
      "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (4096 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.",
      { contextLimit: 4096, promptTokens: 4096, reservedOutputTokens: 1024 },
    ],
    [
      'vLLM, input tokens',
      "This model's maximum context length is 32768 tokens. However, your request has 40000 input tokens. Please reduce the length of the input messages.",
      { contextLimit: 32768, promptTokens: 40000, reservedOutputTokens: undefined },
    ],
    [
      'Anthropic, prompt',
      'Anthropic API error (HTTP 400, invalid_request_error): prompt is too long: 210000 tokens > 200000 maximum',
      { contextLimit: 200000, promptTokens: 210000, reservedOutputTokens: undefined },
    ],
    [
      'Anthropic, prompt and max_tokens',
      'input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length or `max_tokens` and try again',
      { contextLimit: 200000, promptTokens: 178959, reservedOutputTokens: 64000 },
    ],
    [
      'llama.cpp, with figures',
      'request (5120 tokens) exceeds the available context size (4096 tokens), try increasing it',
      { contextLimit: 4096, promptTokens: 5120, reservedOutputTokens: undefined },
    ],
    [
      'llama.cpp, without figures',
      'the request exceeds the available context size, try increasing it',
      { contextLimit: undefined, promptTokens: undefined, reservedOutputTokens: undefined },
    ],
    [
      'OpenAI Responses, without figures',
      'Your input exceeds the context window of this model. Please adjust your input and try again.',
      { contextLimit: undefined, promptTokens: undefined, reservedOutputTokens: undefined },
    ],
  ])('%s', (_, message, figures) => {
    expect(isContextOverflowMessage(message)).toBe(true);
    expect(overflow(message)).toMatchObject(figures);
  });

  it('figures given win over the message, and nonsense is dropped', () => {
    const error = new ProviderError({
      kind: 'context_overflow',
      message: 'the request exceeds the available context size, try increasing it',
      contextLimit: 4096,
      promptTokens: 5120,
      reservedOutputTokens: Number.NaN,
    });
    expect(error).toMatchObject({ contextLimit: 4096, promptTokens: 5120, reservedOutputTokens: undefined });
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ contextLimit: 4096, promptTokens: 5120 });
  });

  it('another kind reads no figures from its message', () => {
    const error = new ProviderError({
      kind: 'rate_limit',
      message: "This model's maximum context length is 128000 tokens.",
    });
    expect(error.contextLimit).toBeUndefined();
    expect(JSON.parse(JSON.stringify(error))).not.toHaveProperty('contextLimit');
  });
});
