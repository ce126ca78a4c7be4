import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  type AgentMessage,
  defineTool,
  preApproveSkillTools,
  type Skill,
  skillTools,
  type ToolResultMessage,
} from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepAgent } from '../test-support/step-agent.js';

const release: Skill = {
  name: 'release',
  description: 'Cuts a release. Use when asked to publish a version.',
  body: 'Run the tests, then tag.',
  allowedTools: ['run_command', 'Bash(git:*)', 'delete_branch'],
};

function tools(counts: Record<string, number>) {
  const counted = (name: string, risk: 'execute' | 'write') =>
    defineTool({
      name,
      description: name,
      risk,
      parameters: z.object({ command: z.string() }),
      execute: ({ command }) => {
        counts[name] = (counts[name] ?? 0) + 1;
        return `ran ${command}`;
      },
    });
  return [counted('run_command', 'execute'), counted('delete_branch', 'write'), counted('deploy', 'execute')];
}

function results(messages: readonly AgentMessage[]): ToolResultMessage[] {
  return messages.filter((message) => message.role === 'toolResult') as ToolResultMessage[];
}

describe('allowed-tools', () => {
  it('is off by default: a listed tool still pauses for approval after its skill is loaded', async () => {
    const counts: Record<string, number> = {};
    const agent = stepAgent({
      provider: inlineProvider([
        [toolDone('load_skill', { name: 'release' })],
        [toolDone('run_command', { command: 'npm test' })],
      ]),
      tools: [...tools(counts), ...skillTools([release])],
      policy: 'standard',
    });
    const result = await agent.prompt('release').result();
    expect(result.terminateReason).toBe('await_user');
    expect(counts.run_command).toBeUndefined();
  });

  it('when turned on, pre-approves the listed tools once the skill is loaded, in the policy record, for that session only', async () => {
    const counts: Record<string, number> = {};
    const events: AgentEvent[] = [];
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('run_command', { command: 'npm test' }, 'before')]]),
      tools: [...tools(counts), ...skillTools([release])],
      policy: preApproveSkillTools('standard', [release]),
    });
    // Not loaded yet: the policy asks as before.
    const before = await agent.prompt('test').result();
    expect(before.terminateReason).toBe('await_user');
    expect(counts.run_command).toBeUndefined();

    const provider = inlineProvider([
      [toolDone('load_skill', { name: 'release' })],
      [toolDone('run_command', { command: 'npm test' }, 'after')],
      [toolDone('deploy', { command: 'prod' }, 'other')],
    ]);
    const session = stepAgent({
      provider,
      tools: [...tools(counts), ...skillTools([release])],
      policy: preApproveSkillTools('standard', [release]),
    });
    session.subscribe((event) => events.push(event));
    const loaded = await session.prompt('release').result();
    expect(counts.run_command).toBe(1);
    expect(counts.deploy).toBeUndefined();
    expect(loaded.terminateReason).toBe('await_user');
    expect(loaded.pendingApprovals?.map((approval) => approval.toolName)).toEqual(['deploy']);
    const decided = events.filter((event) => event.type === 'policy');
    expect(decided.map((event) => [event.toolCall.name, event.decision, event.reason])).toEqual([
      ['load_skill', 'allow', "policy 'standard' says 'allow' for risk 'read'"],
      [
        'run_command',
        'allow',
        "pre-approved by skill 'release' (its allowed-tools lists 'run_command'; loaded in this session)",
      ],
      ['deploy', 'ask', "policy 'standard' says 'ask' for risk 'execute'"],
    ]);

    // A session resumed from the stored history keeps it; a new session does not have it.
    const resumed = stepAgent({
      provider: inlineProvider([
        [toolDone('delete_branch', { command: 'old' }, 'resumed')],
        [textDone('done')],
      ]),
      tools: [...tools(counts), ...skillTools([release])],
      policy: preApproveSkillTools('standard', [release]),
      messages: JSON.parse(JSON.stringify(loaded.messages.slice(0, 5))) as AgentMessage[],
    });
    const again = await resumed.prompt('clean up').result();
    expect(again.terminateReason).toBe('completed');
    expect(counts.delete_branch).toBe(1);
  });

  it('never turns a denial into an approval, and ignores entries that restrict arguments', async () => {
    const counts: Record<string, number> = {};
    const gitOnly: Skill = { ...release, allowedTools: ['Bash(git:*)'] };
    const agent = stepAgent({
      provider: inlineProvider([
        [toolDone('load_skill', { name: 'release' })],
        [toolDone('run_command', { command: 'rm -rf /' })],
        [textDone('stopped')],
      ]),
      tools: [...tools(counts), ...skillTools([release])],
      policy: preApproveSkillTools({ extends: 'standard', tools: { run_command: 'deny' } }, [release]),
    });
    const result = await agent.prompt('release').result();
    expect(counts.run_command).toBeUndefined();
    expect(results(result.messages).at(-1)?.content).toMatch(
      /was denied: policy 'standard' says 'deny' for tool 'run_command'/,
    );
    // A deny-all tool is not even offered, as with the policy alone.
    const hidden = inlineProvider([[textDone('ok')]]);
    await stepAgent({
      provider: hidden,
      tools: [...tools(counts), ...skillTools([gitOnly])],
      policy: preApproveSkillTools({ extends: 'standard', tools: { deploy: 'deny' } }, [gitOnly]),
    })
      .prompt('hi')
      .result();
    expect(hidden.requests[0]?.tools?.map((tool) => tool.name)).not.toContain('deploy');

    const approvals: string[] = [];
    const restricted = stepAgent({
      provider: inlineProvider([
        [toolDone('load_skill', { name: 'release' })],
        [toolDone('run_command', { command: 'git tag v1' })],
        [textDone('ok')],
      ]),
      tools: [...tools(counts), ...skillTools([gitOnly])],
      policy: preApproveSkillTools('standard', [gitOnly]),
      approve: (request) => {
        approvals.push(request.toolName);
        return 'allow';
      },
    });
    await restricted.prompt('tag').result();
    expect(approvals).toEqual(['run_command']);
  });
});
