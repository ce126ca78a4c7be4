import type { SystemPromptContext } from '../loop/run-options.js';
import { type PromptLayers, resolvePromptLayers } from './prompt-layers.js';
import { renderTemplate } from './render-template.js';
import { RuntimeInfo } from './runtime-info.js';
import { renderSkillsSection } from '../skills/render-skills-section.js';

/** Where the built-in sections go; a custom section's `order` places it among them. */
export const promptSectionOrder = {
  identity: 100,
  tools: 200,
  skills: 300,
  modelAliases: 400,
  workspace: 500,
  sandbox: 600,
  runtime: 700,
  memory: 800,
} as const;

/** A section of the user's own. Its text is a template unless `template` is false. */
export interface PromptSection {
  name: string;
  /** Position among the sections (see `promptSectionOrder`); equal orders keep the given order. */
  order: number;
  /** A `## heading` above the text; none when omitted. */
  heading?: string;
  /** The text, or a function of the call's context; empty or undefined omits the section. */
  text: string | ((context: SystemPromptContext) => string | undefined);
  template?: boolean;
}

/**
 * A skill the model may use, listed in the skills section: its name, its
 * description and, when given, its location. A `Skill` is one; its body is
 * never put in the prompt (the model loads it with `load_skill`).
 */
export interface PromptSkill {
  name: string;
  description: string;
  /** Where the skill is (its `SKILL.md` path or a URL), shown after its description. */
  location?: string;
}

/** Options of a `SystemPromptBuilder`. Every section is optional and omitted when empty. */
export interface SystemPromptBuilderOptions {
  /** Who the agent is: a template, or layers (project override > mode > default). */
  identity?: string | PromptLayers;
  /** Picks the mode layer of `identity`. */
  mode?: string;
  /** List the call's tools with their descriptions (default true). */
  tools?: boolean;
  /** The skills listed in the skills section (names, descriptions, locations; never bodies). */
  skills?: readonly PromptSkill[];
  /** Alias to model name; listed only when there are at least two. */
  modelAliases?: Readonly<Record<string, string>>;
  /** The working directory the agent's tools act in, as the user chose it. */
  workspace?: string;
  /** What the sandbox allows, in words. */
  sandbox?: string;
  /**
   * Runtime section: `true` or `{ timezone }` reads the time each build
   * (`RuntimeInfo.fromEnvironment` with the call's model and provider); a
   * `RuntimeInfo` is used as is. Default: no runtime section.
   */
  runtime?: boolean | { timezone?: string } | RuntimeInfo;
  /** User notes and retrieved knowledge; never treated as a template. */
  memory?: string | ((context: SystemPromptContext) => string | undefined);
  sections?: readonly PromptSection[];
  /** Values of `${name}` and `{{name}}` besides the built-in `provider`, `model` and `tools`. */
  variables?: Readonly<Record<string, string>>;
  /** The clock of the runtime section (for tests). Default: `new Date()`. */
  now?: () => Date;
}

interface Part {
  order: number;
  index: number;
  heading: string | undefined;
  name: string;
  /** Renders the section; `dynamic` holds this call's values of runtime, memory and custom functions. */
  render: (context: SystemPromptContext, dynamic: readonly (string | undefined)[]) => string | undefined;
  template: boolean;
}

/**
 * Builds the system prompt from ordered sections: identity, tools, skills,
 * model aliases, workspace, sandbox, runtime, memory and sections of your
 * own. `build` plugs into the Agent's `systemPrompt` and rebuilds only when
 * the call's provider, model, tools or a dynamic section changed.
 *
 * @example
 * const builder = new SystemPromptBuilder({ identity: 'You are {{model}}, a careful assistant.', runtime: true });
 * const agent = new Agent({ provider, model, systemPrompt: builder.build });
 */
export class SystemPromptBuilder {
  readonly #options: SystemPromptBuilderOptions;
  readonly #parts: Part[];
  #lastContext: SystemPromptContext | undefined;
  #lastDynamic: (string | undefined)[] = [];
  #lastPrompt = '';

  constructor(options: SystemPromptBuilderOptions = {}) {
    this.#options = options;
    this.#parts = this.#collectParts();
  }

  /** The prompt for one model call; throws `TemplateError` for an unknown variable. */
  readonly build = (context: SystemPromptContext): string => {
    const dynamic = this.#dynamicInputs(context);
    const last = this.#lastContext;
    if (
      last !== undefined &&
      last.provider === context.provider &&
      last.model === context.model &&
      last.tools === context.tools &&
      sameValues(dynamic, this.#lastDynamic)
    ) {
      return this.#lastPrompt;
    }
    const variables: Record<string, string> = {
      ...this.#options.variables,
      provider: context.provider,
      model: context.model,
      tools: context.tools.map((tool) => tool.name).join(', '),
    };
    const sections: string[] = [];
    for (const part of this.#parts) {
      const raw = part.render(context, dynamic);
      if (raw === undefined) continue;
      const text = (part.template ? renderTemplate(raw, variables, part.name) : raw).trim();
      if (text === '') continue;
      sections.push(part.heading === undefined ? text : `## ${part.heading}\n${text}`);
    }
    this.#lastContext = context;
    this.#lastDynamic = dynamic;
    this.#lastPrompt = sections.join('\n\n');
    return this.#lastPrompt;
  };

  /** The values that can change between calls with the same context: runtime, memory, custom functions. */
  #dynamicInputs(context: SystemPromptContext): (string | undefined)[] {
    const inputs: (string | undefined)[] = [];
    const runtime = this.#options.runtime;
    if (runtime !== undefined && runtime !== false && !(runtime instanceof RuntimeInfo)) {
      inputs.push(this.#runtimeText(context));
    }
    const memory = this.#options.memory;
    if (typeof memory === 'function') inputs.push(memory(context));
    for (const section of this.#options.sections ?? []) {
      if (typeof section.text === 'function') inputs.push(section.text(context));
    }
    return inputs;
  }

  #runtimeText(context: SystemPromptContext): string {
    const runtime = this.#options.runtime;
    const info = RuntimeInfo.fromEnvironment({
      model: context.model,
      provider: context.provider,
      ...(typeof runtime === 'object' && runtime.timezone !== undefined
        ? { timezone: runtime.timezone }
        : {}),
      now: this.#options.now?.() ?? new Date(),
    });
    return info.lines().join('\n');
  }

  #collectParts(): Part[] {
    const options = this.#options;
    const order = promptSectionOrder;
    const parts: Omit<Part, 'index'>[] = [];
    const identity = options.identity;
    if (identity !== undefined) {
      const text = typeof identity === 'string' ? identity : resolvePromptLayers(identity, options.mode);
      parts.push({
        order: order.identity,
        heading: undefined,
        name: 'identity',
        template: true,
        render: () => text,
      });
    }
    if (options.tools !== false) {
      parts.push({
        order: order.tools,
        heading: 'Tools',
        name: 'tools',
        template: false,
        render: (context) => context.tools.map((tool) => `- ${tool.name}: ${tool.description}`).join('\n'),
      });
    }
    const skills = options.skills ?? [];
    parts.push({
      order: order.skills,
      heading: 'Skills',
      name: 'skills',
      template: false,
      render: (context) =>
        skills.length === 0
          ? undefined
          : renderSkillsSection(skills, new Set(context.tools.map((tool) => tool.name))),
    });
    const aliases = Object.entries(options.modelAliases ?? {});
    parts.push({
      order: order.modelAliases,
      heading: 'Model aliases',
      name: 'model aliases',
      template: false,
      render: () =>
        aliases.length < 2 ? undefined : aliases.map(([alias, model]) => `- ${alias}: ${model}`).join('\n'),
    });
    const workspace = options.workspace;
    parts.push({
      order: order.workspace,
      heading: 'Workspace',
      name: 'workspace',
      template: false,
      render: () =>
        workspace === undefined || workspace === '' ? undefined : `Working directory: ${workspace}`,
    });
    const sandbox = options.sandbox;
    parts.push({
      order: order.sandbox,
      heading: 'Sandbox',
      name: 'sandbox',
      template: false,
      render: () => sandbox,
    });
    // Slots in the order #dynamicInputs fills them.
    let slot = 0;
    const runtime = options.runtime;
    if (runtime !== undefined && runtime !== false) {
      const fixed = runtime instanceof RuntimeInfo ? runtime.lines().join('\n') : undefined;
      const runtimeSlot = fixed === undefined ? slot++ : -1;
      parts.push({
        order: order.runtime,
        heading: 'Runtime',
        name: 'runtime',
        template: false,
        render: (_context, dynamic) => fixed ?? dynamic[runtimeSlot],
      });
    }
    const memory = options.memory;
    const memorySlot = typeof memory === 'function' ? slot++ : -1;
    parts.push({
      order: order.memory,
      heading: 'Memory',
      name: 'memory',
      template: false,
      render: (_context, dynamic) => (typeof memory === 'function' ? dynamic[memorySlot] : memory),
    });
    for (const section of options.sections ?? []) {
      const text = section.text;
      const sectionSlot = typeof text === 'function' ? slot++ : -1;
      parts.push({
        order: section.order,
        heading: section.heading,
        name: section.name,
        template: section.template !== false,
        render: (_context, dynamic) => (typeof text === 'function' ? dynamic[sectionSlot] : text),
      });
    }
    return parts
      .map((part, index) => ({ ...part, index }))
      .sort((left, right) => left.order - right.order || left.index - right.index);
  }
}

function sameValues(left: readonly (string | undefined)[], right: readonly (string | undefined)[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index++) if (left[index] !== right[index]) return false;
  return true;
}
