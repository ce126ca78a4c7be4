import { describe, expect, it } from 'vitest';
import { Agent, AgentBusyError, ConfigError } from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { stepAgent } from '../test-support/step-agent.js';

describe('setModel', () => {
  it('switches provider and model between prompts and keeps the conversation', async () => {
    const first = inlineProvider([[textDone('from the first')]], 'first');
    const second = inlineProvider([[textDone('from the second')]], 'second');
    const agent = new Agent({ provider: first, model: 'small', orchestrator: stepOrchestrator });
    await agent.prompt('one').result();
    agent.setModel('large', second);
    const result = await agent.prompt('two').result();
    expect(result.text).toBe('from the second');
    expect(agent.options.model).toBe('large');
    expect(agent.options.provider).toBe(second);
    // The second provider is sent the whole conversation, under the new model name.
    expect(second.requests[0]?.model).toBe('large');
    expect(second.requests[0]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', provider: 'second' });
  });

  it('switches the model alone, keeping the provider', async () => {
    const provider = inlineProvider([[textDone('a')], [textDone('b')]]);
    const agent = new Agent({ provider, model: 'small', orchestrator: stepOrchestrator });
    await agent.prompt('one').result();
    agent.setModel('large');
    await agent.prompt('two').result();
    expect(provider.requests.map((request) => request.model)).toEqual(['small', 'large']);
  });

  it('is refused during a run and for a model or provider it cannot use', async () => {
    const provider = inlineProvider([
      async function* (_request, signal) {
        await new Promise((resolve) => signal?.addEventListener('abort', resolve));
        yield textDone('late');
      },
    ]);
    const agent = stepAgent({ provider });
    const run = agent.prompt('wait');
    expect(() => agent.setModel('other')).toThrow(AgentBusyError);
    run.abort();
    await run.result();
    expect(() => agent.setModel('')).toThrow(ConfigError);
    expect(() => agent.setModel('x', {} as never)).toThrow(/needs a provider/);
    expect(agent.options.model).toBe('m');
  });
});
