import { describe, expect, it } from 'vitest';
import { policies, type ToolResultMessage } from '../index.js';
import { callsDone, inlineProvider, textDone } from '../test-support/inline-provider.js';
import { countedTools } from './test-support/governed-tools.js';
import { stepAgent } from '../test-support/step-agent.js';

function run(text: string | undefined, policy = policies.permissive) {
  const counted = countedTools();
  const agent = stepAgent({
    provider: inlineProvider([
      [callsDone([{ id: 'r1', name: 'read_file', input: { path: 'notes.md' } }], text)],
      [textDone('done')],
    ]),
    tools: counted.tools,
    policy,
    intentRequired: true,
  });
  return { runs: counted.runs, agent };
}

function firstResult(messages: readonly { role: string }[]): ToolResultMessage | undefined {
  return messages.find((message) => message.role === 'toolResult') as ToolResultMessage | undefined;
}

describe('intents', () => {
  it('runs a call whose tool was declared in an intent before it', async () => {
    const { runs, agent } = run('<intent tool="read_file" risk="read">to see the notes</intent>');
    const result = await agent.prompt('read').result();
    expect(runs.read_file).toBe(1);
    expect(firstResult(result.messages)?.isError).toBe(false);
  });

  it('refuses a call without a matching intent, saying exactly what to declare', async () => {
    const { runs, agent } = run('<intent tool="write_file" risk="write">wrong tool</intent>');
    const result = await agent.prompt('read').result();
    expect(runs.read_file).toBe(0);
    expect(firstResult(result.messages)?.content).toBe(
      `Tool call 'read_file' was refused: no intent was declared for it. Before the call, in the same message, write <intent tool="read_file" risk="read">why you need it</intent>, then call it again.`,
    );
    expect(result.terminateReason).toBe('completed');
  });

  it('a declared risk raises the tool risk the policy sees, and never lowers it', async () => {
    const raised = run(
      '<intent tool="read_file" risk="execute">runs a script as it reads</intent>',
      policies.strict,
    );
    const raisedResult = await raised.agent.prompt('read').result();
    expect(raised.runs.read_file).toBe(0);
    expect(firstResult(raisedResult.messages)?.content).toMatch(/says 'deny' for risk 'execute'/);

    const counted = countedTools();
    const lowered = stepAgent({
      provider: inlineProvider([
        [
          callsDone(
            [{ id: 'x1', name: 'run_command', input: { command: 'ls' } }],
            '<intent tool="run_command" risk="read">only lists</intent>',
          ),
        ],
        [textDone('done')],
      ]),
      tools: counted.tools,
      policy: policies.standard,
      intentRequired: true,
      approve: (request) =>
        request.risk === 'execute' ? { decision: 'deny', reason: 'saw execute' } : 'allow',
    });
    const loweredResult = await lowered.prompt('list').result();
    expect(counted.runs.run_command).toBe(0);
    expect(firstResult(loweredResult.messages)?.content).toMatch(/denied by the user: saw execute/);
  });

  it('refuses an intent with a risk that is not one of the four', async () => {
    const { runs, agent } = run('<intent tool="read_file" risk="harmless">trust me</intent>');
    const result = await agent.prompt('read').result();
    expect(runs.read_file).toBe(0);
    expect(firstResult(result.messages)?.content).toMatch(
      /declares risk "harmless", which is not one of read, write, network, execute/,
    );
  });
});
