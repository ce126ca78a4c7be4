import { type Policy, type PolicyOption, type PolicyVerdict, toPolicy } from '../governance/policy.js';
import { checkSkills } from './check-skills.js';
import type { Skill } from './skill.js';
import { loadedSkillNames } from './skill-history.js';

/**
 * Turns on the experimental `allowed-tools` of Agent Skills: a call that
 * `policy` would ask a person about runs without asking when a skill loaded
 * earlier in this session (a `load_skill` result in its history) lists the
 * tool by its exact name. The `policy` event records it (`allow`, with the
 * skill named in its reason). Only `ask` is relaxed: a denial stays a denial,
 * and entries that restrict arguments (`Bash(git:*)`) pre-approve nothing.
 * The history is the session's, so the approval lasts that session only and
 * holds after a resume in another process.
 *
 * @example
 * const agent = new Agent({ provider, model, tools: [...tools, ...skillTools(skills)], policy: preApproveSkillTools('standard', skills) });
 */
export function preApproveSkillTools(policy: PolicyOption, skills: readonly Skill[]): Policy {
  const base = toPolicy(policy);
  const allowing = new Map<string, Set<string>>();
  for (const skill of checkSkills(skills).values()) {
    const tools = new Set((skill.allowedTools ?? []).filter((entry) => /^[A-Za-z0-9_.:-]+$/.test(entry)));
    if (tools.size > 0) allowing.set(skill.name, tools);
  }
  const wrapped: Policy = {
    name: base.name,
    async decide(call, tool, run) {
      const verdict: PolicyVerdict = await base.decide(call, tool, run);
      const decision = typeof verdict === 'string' ? verdict : verdict?.decision;
      if (decision !== 'ask' || run.messages === undefined || allowing.size === 0) return verdict;
      for (const name of loadedSkillNames(run.messages)) {
        if (allowing.get(name)?.has(tool.name) === true) {
          return {
            decision: 'allow',
            reason: `pre-approved by skill '${name}' (its allowed-tools lists '${tool.name}'; loaded in this session)`,
          };
        }
      }
      return verdict;
    },
  };
  const toolDecision = base.toolDecision;
  if (toolDecision !== undefined) wrapped.toolDecision = (tool) => toolDecision.call(base, tool);
  return wrapped;
}
