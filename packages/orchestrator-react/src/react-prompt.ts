import type { JsonSchema, ToolSpec } from '@agent-core/core';

/** A tool as the ReAct prompt describes it. */
export interface ReactToolSpec {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** True when the schema lists required properties, so a missing `Action Input` is an error. */
  requiresInput: boolean;
}

const specs = new WeakMap<ToolSpec, ReactToolSpec>();

/** The tools as the ReAct prompt describes them, from core's converted specs; cached per spec. */
export function reactToolSpecs(toolSpecs: readonly ToolSpec[]): ReactToolSpec[] {
  return toolSpecs.map((toolSpec) => {
    let spec = specs.get(toolSpec);
    if (spec === undefined) {
      const required = toolSpec.parameters.required;
      spec = { ...toolSpec, requiresInput: Array.isArray(required) && required.length > 0 };
      specs.set(toolSpec, spec);
    }
    return spec;
  });
}

/** The reply format, as the system prompt and every format correction state it. */
export function formatInstructions(tools: readonly ReactToolSpec[]): string {
  const answer = 'Thought: I now know the final answer.\nFinal Answer: the answer for the user';
  if (tools.length === 0) return `Reply in this format:\n\n${answer}`;
  const names = tools.map((tool) => tool.name).join(', ');
  return [
    'To use a tool, reply with exactly this and then stop:',
    '',
    'Thought: what you need to do next and why',
    `Action: the tool's name, one of [${names}]`,
    "Action Input: the tool's input as one JSON object",
    '',
    'The tool\'s result comes back to you as "Observation: ...". Use one Action per reply and never write the Observation yourself.',
    'When you know the answer, reply with:',
    '',
    answer,
  ].join('\n');
}

// The last section built per first tool (or none): agents made per request with the same tools
// build the section once, not per run.
const sections = new WeakMap<object, { tools: readonly ReactToolSpec[]; section: string }>();
const noToolsKey = {};

/** The protocol section appended to the agent's system prompt: the tools with their input schemas, then the format. */
export function protocolSection(tools: readonly ReactToolSpec[]): string {
  const key = tools[0] ?? noToolsKey;
  const cached = sections.get(key);
  if (cached !== undefined && sameTools(cached.tools, tools)) return cached.section;
  const section = buildSection(tools);
  sections.set(key, { tools: [...tools], section });
  return section;
}

function sameTools(left: readonly ReactToolSpec[], right: readonly ReactToolSpec[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}

function buildSection(tools: readonly ReactToolSpec[]): string {
  const lines = ['# Tools and reply format', ''];
  if (tools.length > 0) {
    lines.push('You can use these tools:', '');
    for (const tool of tools) {
      lines.push(`- ${tool.name}: ${tool.description}`);
      lines.push(`  Input (JSON Schema): ${JSON.stringify(tool.parameters)}`);
    }
    lines.push('');
  } else {
    lines.push('No tools are available: answer directly.', '');
  }
  lines.push(formatInstructions(tools));
  return lines.join('\n');
}
