import { describe, expect, it } from 'vitest';
import { providerErrorFromStatus } from './provider-error-from-status.js';
import { toolInputFromJson } from './tool-input-from-json.js';

describe('providerErrorFromStatus', () => {
  it('says a context overflow, by its message or its code, where the status alone says invalid_request', () => {
    expect(providerErrorFromStatus(400, 'prompt is too long: 210000 tokens > 200000 maximum').kind).toBe(
      'context_overflow',
    );
    expect(providerErrorFromStatus(400, 'too big', { code: 'context_length_exceeded' }).kind).toBe(
      'context_overflow',
    );
    expect(providerErrorFromStatus(400, 'bad field').kind).toBe('invalid_request');
    // A server error that mentions a context window is still a server error: retried, not compacted.
    expect(providerErrorFromStatus(500, 'context window service down').kind).toBe('server');
  });

  it('reads Retry-After and keeps the status and provider', () => {
    const error = providerErrorFromStatus(429, 'slow down', { retryAfter: '3', provider: 'mine' });
    expect([error.kind, error.retryAfterMs, error.status, error.provider, error.retryable]).toEqual([
      'rate_limit',
      3000,
      429,
      'mine',
      true,
    ]);
  });
});

describe('toolInputFromJson', () => {
  it('gives an object for JSON objects and empty text, a problem for anything else', () => {
    expect(toolInputFromJson('{"a": 1}')).toEqual({ ok: true, input: { a: 1 } });
    expect(toolInputFromJson('  ')).toEqual({ ok: true, input: {} });
    expect(toolInputFromJson('{"a": ')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/not JSON/),
    });
    expect(toolInputFromJson('[1]')).toEqual({
      ok: false,
      problem: "the tool call's arguments are an array, not a JSON object",
    });
    expect(toolInputFromJson('"x"')).toEqual({
      ok: false,
      problem: "the tool call's arguments are a string, not a JSON object",
    });
  });
});
