import { describe, expect, it } from 'vitest';
import { type AgentMessage, type ModelEvent, ProviderError, modelSummarizer } from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';

const dropped: AgentMessage[] = [
  { role: 'user', content: 'Find the config file.' },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'glob first', signature: 'sig' },
      { type: 'toolCall', id: 'c1', name: 'glob', input: { pattern: '*.toml' } },
    ],
    stopReason: 'tool_use',
  },
  { role: 'toolResult', toolCallId: 'c1', toolName: 'glob', content: 'agent.toml', isError: false },
];

describe('modelSummarizer', () => {
  it('asks the same model with no tools, one user message holding the transcript, and returns its text', async () => {
    const provider = inlineProvider([[textDone('The user looked for agent.toml and found it.')]]);
    const summarize = modelSummarizer(provider, 'model-a', { maxTokens: 300 });
    const summary = await summarize(dropped, new AbortController().signal);
    expect(summary).toBe('The user looked for agent.toml and found it.');
    const [request] = provider.requests;
    expect(request?.tools).toBeUndefined();
    expect(request?.toolChoice).toBeUndefined();
    expect(request?.model).toBe('model-a');
    expect(request?.maxTokens).toBe(300);
    expect(request?.messages).toHaveLength(1);
    expect(request?.messages[0]?.content).toContain('User: Find the config file.');
    expect(request?.messages[0]?.content).toContain('Assistant called glob({"pattern":"*.toml"})');
    expect(request?.messages[0]?.content).toContain('Result of glob: agent.toml');
    // Thinking and its signature never travel into the summary request.
    expect(JSON.stringify(request)).not.toContain('sig');
  });

  it('throws the provider error, so the compaction falls back to its marker', async () => {
    const failure: ModelEvent[] = [
      { type: 'error', error: new ProviderError({ kind: 'server', message: 'down' }) },
    ];
    const summarize = modelSummarizer(inlineProvider([failure]), 'model-a');
    await expect(summarize(dropped, new AbortController().signal)).rejects.toThrow('down');
  });
});
