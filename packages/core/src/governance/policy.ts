import { ConfigError } from '../errors/config-error.js';
import type { AgentMessage, ToolCallBlock } from '../messages/messages.js';
import type { AnyTool, ToolRisk } from '../tool/tool.js';

/** What a policy answers for a tool call. */
export type PolicyDecision = 'allow' | 'ask' | 'deny';

const policyDecisions: readonly PolicyDecision[] = ['allow', 'ask', 'deny'];

/** A decision, alone or with the reason shown to the model (deny) or the person (ask). */
export type PolicyVerdict = PolicyDecision | { decision: PolicyDecision; reason?: string };

/** What a policy knows about the run when it decides a call. */
export interface PolicyRunInfo {
  runId: string;
  turn: number;
  /** The call's risk: the tool's own (`execute` when it declares none), raised by a declared intent. */
  risk: ToolRisk;
  /** The reason the model declared in its `<intent>`, when intents are required. */
  intent?: string;
  /**
   * The session's history as the gate sees it (read only): a policy may
   * decide from what happened before, as `preApproveSkillTools` does from the
   * skills loaded. Set by the gate; absent when a policy is called by hand.
   */
  messages?: readonly AgentMessage[];
}

/** A policy as a function of the call, the tool and the run. */
export type PolicyFunction = (
  call: ToolCallBlock,
  tool: AnyTool,
  run: PolicyRunInfo,
) => PolicyVerdict | Promise<PolicyVerdict>;

/** The names of the built-in profiles (see `policies`). */
export type PolicyProfileName = 'strict' | 'standard' | 'permissive';

/** The built-in profiles' names, in order from the most to the least careful. */
export const policyProfileNames: readonly PolicyProfileName[] = ['strict', 'standard', 'permissive'];

/**
 * A policy from rules: a tool's own rule wins over its risk's rule; anything
 * neither covers gets `otherwise` (default `ask`). With `extends`, the rules
 * build on a profile: its risk table applies wherever `risk` says nothing.
 */
export interface PolicyRules {
  name?: string;
  /** A profile whose risk table these rules start from, e.g. `{ extends: 'standard', tools: { deploy: 'deny' } }`. */
  extends?: PolicyProfileName;
  risk?: Partial<Readonly<Record<ToolRisk, PolicyDecision>>>;
  tools?: Readonly<Record<string, PolicyDecision>>;
  otherwise?: PolicyDecision;
}

/**
 * Decides whether each tool call may run (`allow`), needs a person (`ask`)
 * or is refused (`deny`).
 *
 * Contract:
 * - `decide` is called at the gate in `executeTool` for every call, after its
 *   input was validated; a throw or rejection denies the call (fail closed).
 * - `toolDecision`, when present, answers for every call of a tool at once;
 *   `deny` there means the tool is not offered to the model at all.
 */
export interface Policy {
  readonly name: string;
  decide: PolicyFunction;
  toolDecision?(tool: AnyTool): PolicyDecision | undefined;
}

/** What `AgentOptions.policy` takes: a profile's name, a policy, rules, or a function. */
export type PolicyOption = PolicyProfileName | Policy | PolicyRules | PolicyFunction;

/**
 * The risk assumed for a tool that declares none: `execute`, the highest, so
 * an unmarked tool (often an MCP server's) is never let through by a rule
 * meant for reading. Mark tools with `risk` to relax it.
 */
export const defaultToolRisk: ToolRisk = 'execute';

const riskRank: Readonly<Record<ToolRisk, number>> = { read: 0, write: 1, network: 2, execute: 3 };

/** True for the four risk names. */
export function isToolRisk(value: unknown): value is ToolRisk {
  return typeof value === 'string' && Object.hasOwn(riskRank, value);
}

/** The higher of two risks: a declared intent may raise a tool's risk, never lower it. */
export function higherRisk(first: ToolRisk, second: ToolRisk | undefined): ToolRisk {
  return second !== undefined && riskRank[second] > riskRank[first] ? second : first;
}

/**
 * Builds a policy from rules.
 *
 * @example
 * const policy = definePolicy({ name: 'no-shell', risk: { read: 'allow', write: 'ask' }, tools: { run_command: 'deny' } });
 */
export function definePolicy(given: PolicyRules): Policy {
  const rules = withProfile(checkRules(given));
  const name = rules.name ?? 'custom';
  const otherwise = rules.otherwise ?? 'ask';
  const toolRule = (tool: AnyTool): PolicyDecision | undefined =>
    rules.tools !== undefined && Object.hasOwn(rules.tools, tool.name) ? rules.tools[tool.name] : undefined;
  return {
    name,
    decide(_call, tool, run) {
      const byTool = toolRule(tool);
      if (byTool !== undefined)
        return { decision: byTool, reason: `policy '${name}' says '${byTool}' for tool '${tool.name}'` };
      const byRisk = rules.risk?.[run.risk] ?? otherwise;
      return { decision: byRisk, reason: `policy '${name}' says '${byRisk}' for risk '${run.risk}'` };
    },
    toolDecision(tool) {
      const byTool = toolRule(tool);
      if (byTool !== undefined) return byTool;
      // Only the tool's own risk: an intent can raise it, so deny stays deny, and other answers may change per call.
      const byRisk = rules.risk?.[tool.risk ?? defaultToolRisk] ?? otherwise;
      return byRisk === 'deny' ? 'deny' : undefined;
    },
  };
}

/** The risk tables of the built-in profiles. */
const profileRisks: Readonly<Record<PolicyProfileName, Readonly<Record<ToolRisk, PolicyDecision>>>> = {
  strict: { read: 'allow', write: 'ask', execute: 'deny', network: 'deny' },
  standard: { read: 'allow', write: 'ask', execute: 'ask', network: 'ask' },
  permissive: { read: 'allow', write: 'allow', execute: 'allow', network: 'allow' },
};

/**
 * The three profiles, also accepted by name wherever a policy is (`policy: 'standard'`): `strict` (read allowed; write asks; execute and network
 * denied), `standard` (read allowed; everything else asks) and `permissive`
 * (everything allowed).
 */
export const policies: Readonly<Record<PolicyProfileName, Policy>> = {
  strict: definePolicy({ name: 'strict', risk: profileRisks.strict }),
  standard: definePolicy({ name: 'standard', risk: profileRisks.standard }),
  permissive: definePolicy({ name: 'permissive', risk: profileRisks.permissive }),
};

/**
 * Turns what `AgentOptions.policy` holds into a `Policy`. Throws `ConfigError`
 * for anything else: an unknown profile name (listing the valid ones), or
 * rules with a decision that is not `allow`, `ask` or `deny`.
 */
export function toPolicy(option: PolicyOption): Policy {
  if (typeof option === 'string') return policies[profileName(option, 'policy')];
  if (typeof option === 'function') return { name: option.name || 'custom', decide: option };
  if (typeof option !== 'object' || option === null)
    throw new ConfigError(
      `policy must be a profile name (${quoted(policyProfileNames)}), rules such as { extends: 'standard', tools: { deploy: 'deny' } }, a Policy or a function; got ${option === null ? 'null' : typeof option}.`,
    );
  if (typeof (option as Policy).decide === 'function') return option as Policy;
  return definePolicy(option as PolicyRules);
}

function profileName(value: unknown, option: string): PolicyProfileName {
  if (typeof value === 'string' && (policyProfileNames as readonly string[]).includes(value))
    return value as PolicyProfileName;
  throw new ConfigError(
    `${option} names no policy profile: got ${JSON.stringify(value)}. The profiles are ${quoted(policyProfileNames)}.`,
  );
}

/** The rules with their profile's risk table under their own, when they extend one. */
function withProfile(rules: PolicyRules): PolicyRules {
  if (rules.extends === undefined) return rules;
  const profile = profileName(rules.extends, 'policy.extends');
  return { ...rules, name: rules.name ?? profile, risk: { ...profileRisks[profile], ...rules.risk } };
}

/** Throws `ConfigError` for a rule whose decision is not one of the three, naming where it is. */
function checkRules(rules: PolicyRules): PolicyRules {
  const check = (value: unknown, where: string) => {
    if (value !== undefined && !(policyDecisions as readonly unknown[]).includes(value))
      throw new ConfigError(
        `policy ${where} must be ${quoted(policyDecisions)}; got ${JSON.stringify(value)}.`,
      );
  };
  for (const [risk, decision] of Object.entries(rules.risk ?? {})) {
    if (!isToolRisk(risk))
      throw new ConfigError(`policy risk '${risk}' is not a risk: use ${quoted(Object.keys(riskRank))}.`);
    check(decision, `risk.${risk}`);
  }
  for (const [tool, decision] of Object.entries(rules.tools ?? {})) check(decision, `tools.${tool}`);
  check(rules.otherwise, 'otherwise');
  return rules;
}

function quoted(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ');
}
