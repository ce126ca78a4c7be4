import { describe, expect, it } from 'vitest';
import {
  formatTraceparent,
  isSpanId,
  isTraceId,
  parseTraceparent,
  randomSpanId,
  randomTraceId,
} from './trace-context.js';

describe('trace context', () => {
  it('draws valid, distinct W3C ids', () => {
    const traces = new Set<string>();
    const spans = new Set<string>();
    for (let index = 0; index < 500; index++) {
      const traceId = randomTraceId();
      const spanId = randomSpanId();
      expect(isTraceId(traceId)).toBe(true);
      expect(isSpanId(spanId)).toBe(true);
      traces.add(traceId);
      spans.add(spanId);
    }
    expect(traces.size).toBe(500);
    expect(spans.size).toBe(500);
  });

  it('parses and formats traceparent headers', () => {
    const header = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect(parseTraceparent(header)).toEqual({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      sampled: true,
    });
    expect(formatTraceparent(parseTraceparent(header) as never)).toBe(header);
    expect(parseTraceparent('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00')?.sampled).toBe(false);
    // A later version may carry more fields; version 00 may not.
    expect(parseTraceparent(`01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra`)).toBeDefined();
  });

  it('rejects malformed traceparent headers', () => {
    for (const header of [
      '',
      'garbage',
      'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      '00-00000000000000000000000000000000-b7ad6b7169203331-01',
      '00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01',
      '00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01',
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333-01',
      '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra',
    ]) {
      expect(parseTraceparent(header), header).toBeUndefined();
    }
  });
});
