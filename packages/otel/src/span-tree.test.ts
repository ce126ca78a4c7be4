import { Agent } from '@agent-core/core';
import { mock } from '@agent-core/provider-mock';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { instrument } from './instrument.js';
import { formatSpanTree, spanTreeCollector } from './span-tree.js';
import { stepOrchestrator } from '@agent-core/core/testing';
import { failingTool } from '@agent-core/test-support/sample-tools';

const broken = failingTool('broken', 'no');

describe('formatSpanTree', () => {
  it('draws a run as a tree with durations, usage and errors', async () => {
    const collector = spanTreeCollector();
    const provider = new BasicTracerProvider({ spanProcessors: [collector] });
    const agent = new Agent({
      provider: mock({
        turns: [
          { error: { kind: 'overloaded' } },
          { toolCalls: [{ name: 'broken', id: 'call_1' }], usage: { input: 5, output: 2 } },
          { text: 'sorry', usage: { input: 9, output: 1 } },
        ],
      }),
      model: 'm',
      tools: [broken],
      retry: { baseDelayMs: 1 },
      orchestrator: stepOrchestrator,
    });
    instrument(agent, { tracer: provider.getTracer('test'), agentName: 'helper' });
    await agent.prompt('go').result();
    const tree = collector.format().replace(/\d+(\.\d)? ms/g, 'N ms');
    expect(tree).toBe(
      [
        'invoke_agent helper  N ms  usage.input_tokens=14 usage.output_tokens=3',
        '├─ chat m  N ms  error.type=provider_overloaded  ERROR',
        '├─ chat m  N ms  usage.input_tokens=5 usage.output_tokens=2',
        '├─ execute_tool broken  N ms  tool.call.id=call_1 error.type=tool_error  ERROR',
        '└─ chat m  N ms  usage.input_tokens=9 usage.output_tokens=1',
        '',
      ].join('\n'),
    );
    collector.clear();
    expect(collector.format()).toBe('');
  });

  it('nests deeper spans and treats spans with an unknown parent as roots', () => {
    const span = (name: string, spanId: string, parent: string | undefined, start: number) => ({
      name,
      spanContext: () => ({ traceId: 't', spanId }),
      parentSpanId: parent,
      startTime: [start, 0] as const,
      duration: [0, 2_500_000] as const,
      status: { code: 0 },
      attributes: {},
    });
    const tree = formatSpanTree(
      [
        span('c', 'c', 'b', 3),
        span('b', 'b', 'a', 2),
        span('a', 'a', 'elsewhere', 1),
        span('d', 'd', 'a', 4),
      ],
      { attributes: [] },
    );
    expect(tree).toBe(['a  2.5 ms', '├─ b  2.5 ms', '│  └─ c  2.5 ms', '└─ d  2.5 ms', ''].join('\n'));
  });
});
