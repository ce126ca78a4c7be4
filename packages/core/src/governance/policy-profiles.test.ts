import { describe, expect, it } from 'vitest';
import { Agent, type AgentEvent, ConfigError, definePolicy, type PolicyOption } from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { countedTools } from './test-support/governed-tools.js';
import { stepAgent } from '../test-support/step-agent.js';

/** Runs one call of `tool` under `policy` with no approver, and says what the policy decided. */
async function decisionFor(policy: PolicyOption, tool: string): Promise<string | undefined> {
  const { tools } = countedTools();
  const agent = stepAgent({
    provider: inlineProvider([
      [toolDone(tool, { path: 'a', content: 'x', command: 'ls' })],
      [textDone('ok')],
    ]),
    tools,
    policy,
  });
  const events: AgentEvent[] = [];
  agent.subscribe((event) => events.push(event));
  const result = await agent.prompt('go').result();
  const decided = events.find((event) => event.type === 'policy');
  if (decided !== undefined) return (decided as { decision: string }).decision;
  // A tool its policy denies outright is not offered, and a call to it anyway is refused at the gate.
  return result.messages.some(
    (message) => message.role === 'toolResult' && /denied/.test(String(message.content)),
  )
    ? 'deny'
    : undefined;
}

describe('policy profiles by name', () => {
  it.each([
    ['strict', 'read_file', 'allow'],
    ['strict', 'write_file', 'ask'],
    ['strict', 'run_command', 'deny'],
    ['standard', 'read_file', 'allow'],
    ['standard', 'write_file', 'ask'],
    ['standard', 'run_command', 'ask'],
    ['permissive', 'run_command', 'allow'],
  ] as const)("policy: '%s' is that profile: %s gets %s", async (name, tool, expected) => {
    expect(await decisionFor(name, tool)).toBe(expected);
  });

  it('rules extend a profile instead of restating its table: their own entries win, the rest is the profile', async () => {
    const rules = { extends: 'standard', tools: { write_file: 'deny' }, risk: { read: 'ask' } } as const;
    expect(await decisionFor(rules, 'write_file')).toBe('deny');
    expect(await decisionFor(rules, 'read_file')).toBe('ask');
    expect(await decisionFor(rules, 'run_command')).toBe('ask');
    expect(await decisionFor({ extends: 'strict', risk: { execute: 'ask' } }, 'run_command')).toBe('ask');
    expect(await decisionFor({ extends: 'permissive', tools: { run_command: 'ask' } }, 'run_command')).toBe(
      'ask',
    );
    expect(definePolicy({ extends: 'strict' }).name).toBe('strict');
  });

  it('an unknown profile name is a ConfigError at construction that lists the valid ones', () => {
    const make = (policy: unknown) => () =>
      new Agent({ provider: inlineProvider([]), model: 'm', policy: policy as PolicyOption });
    expect(make('standrad')).toThrow(ConfigError);
    expect(make('standrad')).toThrow(
      `policy names no policy profile: got "standrad". The profiles are 'strict', 'standard', 'permissive'.`,
    );
    expect(make({ extends: 'lax' })).toThrow(/policy.extends names no policy profile: got "lax"/);
    expect(make({ tools: { deploy: 'maybe' } })).toThrow(
      /policy tools.deploy must be 'allow', 'ask', 'deny'; got "maybe"/,
    );
    expect(make({ risk: { dangerous: 'deny' } })).toThrow(/policy risk 'dangerous' is not a risk/);
    expect(make(42)).toThrow(/policy must be a profile name .* got number/);
  });
});

describe('governance misuse fails at construction', () => {
  it('a guard without check() is a ConfigError naming the option, not a failure at the first model call', () => {
    const make = (guard: unknown) => () =>
      new Agent({ provider: inlineProvider([]), model: 'm', guard: guard as never });
    expect(make({ name: 'mine' })).toThrow(ConfigError);
    expect(make({ name: 'mine' })).toThrow(
      /guard must be true .* or a Guard: an object with a name and a check\(observation\) method/,
    );
    expect(make('yes')).toThrow(ConfigError);
    expect(make(true)).not.toThrow();
    expect(make({ name: 'mine', check: () => 'ok' })).not.toThrow();
  });

  it('an approver that is not a function is a ConfigError', () => {
    expect(() => new Agent({ provider: inlineProvider([]), model: 'm', approve: 'allow' as never })).toThrow(
      /approve must be a function/,
    );
  });
});
