import {
  canonicalJson,
  type ModelRequest,
  type RedactOptions,
  redactSecrets,
  type ToolSpec,
} from '@agent-core/core';
import type { CassetteRequest, RequestField, RequestSettings } from './cassette-data.js';

/** Every field of a request besides its messages, in the order a cassette writes them. */
export const requestFields: readonly RequestField[] = ['model', 'system', 'tools', 'settings'];

/** A request's fields besides its messages, in canonical form, each with its JSON line. */
export interface CanonicalHeader {
  values: Required<Omit<CassetteRequest, 'messages'>>;
  lines: Record<RequestField, string>;
}

/**
 * Makes the fields of live requests canonical: the system prompt and tool
 * descriptions redacted, settings cut to those that are set. The tool list
 * is made canonical once per array (an agent sends the same one each call).
 */
export class HeaderCanon {
  readonly #redact: RedactOptions;
  readonly #tools = new WeakMap<readonly ToolSpec[], { tools: ToolSpec[]; line: string }>();
  #system: { raw: string | undefined; value: string | null; line: string } | undefined;

  constructor(redact: RedactOptions) {
    this.#redact = redact;
  }

  of(request: ModelRequest): CanonicalHeader {
    const tools = this.#toolsOf(request.tools ?? []);
    const system = this.#systemOf(request.system);
    const settings = settingsOf(request);
    return {
      values: { model: request.model, system: system.value, tools: tools.tools, settings },
      lines: {
        model: JSON.stringify(request.model),
        system: system.line,
        tools: tools.line,
        settings: canonicalJson(settings),
      },
    };
  }

  #toolsOf(raw: readonly ToolSpec[]): { tools: ToolSpec[]; line: string } {
    let known = this.#tools.get(raw);
    if (known === undefined) {
      const tools = raw.map((tool) => ({
        name: tool.name,
        description: redactSecrets(tool.description, this.#redact),
        parameters: tool.parameters,
      }));
      known = { tools, line: canonicalJson(tools) };
      this.#tools.set(raw, known);
    }
    return known;
  }

  #systemOf(raw: string | undefined): { value: string | null; line: string } {
    // The same prompt string every call for most agents: made canonical once.
    if (this.#system !== undefined && this.#system.raw === raw) return this.#system;
    const value = raw === undefined ? null : redactSecrets(raw, this.#redact);
    this.#system = { raw, value, line: JSON.stringify(value) };
    return this.#system;
  }
}

/** Field values of recordings, which are never changed, with their lines. */
const fieldLines = new WeakMap<object, string>();

/** The JSON line of a recorded request's field, or undefined when the recording does not know it. */
export function recordedFieldLine(request: CassetteRequest, field: RequestField): string | undefined {
  const value = request[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  let line = fieldLines.get(value);
  if (line === undefined) {
    line = canonicalJson(value);
    fieldLines.set(value, line);
  }
  return line;
}

/** The settings that are set, in canonical form. */
function settingsOf(request: ModelRequest): RequestSettings {
  const settings: RequestSettings = {};
  if (request.maxTokens !== undefined) settings.maxTokens = request.maxTokens;
  if (request.temperature !== undefined) settings.temperature = request.temperature;
  if (request.stopSequences !== undefined) settings.stopSequences = [...request.stopSequences];
  if (request.toolChoice !== undefined) settings.toolChoice = request.toolChoice;
  if (request.responseFormat !== undefined) settings.responseFormat = request.responseFormat;
  return settings;
}
