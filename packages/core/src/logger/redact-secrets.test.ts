import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact-secrets.js';

describe('redactSecrets', () => {
  it('removes API keys of the common shapes from text', () => {
    const text = [
      'anthropic sk-ant-api03-SECRET123abcdefXYZ',
      'openai sk-proj-SECRETabcdefghijklmnop',
      'google AIzaSyA1234567890abcdefghijklmnopqrstuv',
      'github ghp_abcdefghijklmnopqrstuvwxyz012345',
      'aws AKIAABCDEFGHIJKLMNOP',
      'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abcdefghijklmnop',
    ].join('\n');
    const redacted = redactSecrets(text);
    for (const secret of ['SECRET123', 'SECRETabc', 'AIzaSyA1', 'ghp_abc', 'AKIAABCD', 'eyJhbGci'])
      expect(redacted).not.toContain(secret);
    expect(redacted).toContain('anthropic sk-[REDACTED]');
  });

  it('keeps the name of a credential header and drops its value', () => {
    expect(redactSecrets('Authorization: Bearer abc.def.ghi-12345')).toBe('Authorization: Bearer [REDACTED]');
    expect(redactSecrets('sent x-api-key: my-own-key-value-42')).toBe('sent x-api-key: [REDACTED]');
    expect(redactSecrets('{"api_key":"plainvalue1234"}')).toBe('{"api_key":"[REDACTED]"}');
    expect(redactSecrets('https://host/v1?key=1&apikey=abcd1234&x=2')).toBe(
      'https://host/v1?key=1&apikey=[REDACTED]&x=2',
    );
  });

  it('removes exact values it is given, whatever their shape', () => {
    expect(redactSecrets('the key was hunter2hunter2!', { secrets: ['hunter2hunter2'] })).toBe(
      'the key was [REDACTED]!',
    );
  });

  it('copies plain objects and arrays, replacing credential-named fields whole', () => {
    const input = {
      headers: { authorization: 'x', 'x-api-key': 'short', accept: 'text/plain' },
      apiKey: 'anything',
      list: ['sk-ant-test-SECRET123456', 3, null],
      nested: { message: 'Bearer tokentokentoken' },
      usage: { input: 10, output: 20 },
    };
    const output = redactSecrets(input);
    expect(output).toEqual({
      headers: { authorization: '[REDACTED]', 'x-api-key': '[REDACTED]', accept: 'text/plain' },
      apiKey: '[REDACTED]',
      list: ['sk-[REDACTED]', 3, null],
      nested: { message: 'Bearer [REDACTED]' },
      usage: { input: 10, output: 20 },
    });
    expect(input.apiKey).toBe('anything');
  });

  it('removes the user info of a URL, which carries a password or a token', () => {
    const text =
      'Request cannot be constructed from a URL that includes credentials: http://user:hunter2pass@127.0.0.1:8080/v1/chat';
    expect(redactSecrets(text)).toBe(
      'Request cannot be constructed from a URL that includes credentials: http://[REDACTED]@127.0.0.1:8080/v1/chat',
    );
    expect(redactSecrets('connect postgres://app:s3cret@db.internal:5432/agents failed')).toBe(
      'connect postgres://[REDACTED]@db.internal:5432/agents failed',
    );
    expect(redactSecrets({ url: 'https://tokenonly@example.com/repo.git' })).toEqual({
      url: 'https://[REDACTED]@example.com/repo.git',
    });
    // An @ after the host is a path or a query, not user info.
    const plain = 'see https://example.com/users/@me and http://host/a?b=c@d, mail me@example.com';
    expect(redactSecrets(plain)).toBe(plain);
  });

  it('leaves ordinary text, ids and token counts alone', () => {
    const text = 'toolu_01ABCdef call_abc123 used 1200 input tokens; task-list ok; maxTokens=4096';
    expect(redactSecrets(text)).toBe(text);
    expect(redactSecrets({ tokens: 5, maxTokens: 10 })).toEqual({ tokens: 5, maxTokens: 10 });
  });

  it('turns an Error inside a record into its redacted text', () => {
    expect(redactSecrets({ error: new Error('bad key sk-ant-SECRET99999') })).toEqual({
      error: 'Error: bad key sk-[REDACTED]',
    });
  });
});
