import {
  type AgentMessage,
  isModelMessage,
  type Message,
  type ModelEvent,
  type Provider,
  type ToolSpec,
} from '@agent-core/core';
import { anthropic } from '@agent-core/provider-anthropic';
import { openai } from '@agent-core/provider-openai';
import { wireDialects } from './wire-dialects.js';

// The providers' request builders are not exported, so a history goes through each provider's
// real `stream()` and real SDK, with a `fetch` that keeps the body the SDK would have sent and
// answers a short text stream. No socket is opened: what is checked is the request, and the
// wire checks read it as the API would.

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

function capturingFetch(bodies: unknown[], events: readonly string[]): FetchLike {
  return async (_input, init) => {
    bodies.push(JSON.parse(String(init?.body)));
    return new Response(events.join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

const [anthropicDialect, chatDialect, responsesDialect] = wireDialects as [
  (typeof wireDialects)[number],
  (typeof wireDialects)[number],
  (typeof wireDialects)[number],
];

interface Builder {
  dialect: (typeof wireDialects)[number];
  provider: Provider;
  /** The bodies the provider sent, newest last. */
  bodies: unknown[];
}

function builder(dialect: (typeof wireDialects)[number]): Builder {
  const bodies: unknown[] = [];
  const fetch = capturingFetch(bodies, dialect.textReply('ok'));
  const baseURL = 'http://builder.test';
  const provider =
    dialect === anthropicDialect
      ? anthropic({ apiKey: 'test-key', baseURL, fetch })
      : openai({
          apiKey: 'test-key',
          baseURL: `${baseURL}/v1`,
          fetch,
          ...(dialect === responsesDialect ? { api: 'responses' as const } : {}),
        });
  return { dialect, provider, bodies };
}

// Made once: the checks run one at a time, and each reads the body its own request left.
const builders = [anthropicDialect, chatDialect, responsesDialect].map(builder);

/**
 * What would stop this history from being sent by the Anthropic, Chat
 * Completions and Responses providers: a builder that throws (the stream
 * ends with an error), or a body the API would refuse. Empty when all three
 * send it. App-defined messages are left out, as the default `convertToLlm` does.
 */
export async function providerRequestProblems(
  history: readonly AgentMessage[],
  tools: readonly ToolSpec[] = [],
): Promise<string[]> {
  const messages = history.filter(isModelMessage) as Message[];
  if (messages.length === 0) return [];
  const problems: string[] = [];
  for (const { dialect, provider, bodies } of builders) {
    bodies.length = 0;
    const events: ModelEvent[] = [];
    for await (const event of provider.stream({ model: dialect.model, messages, tools: [...tools] }))
      events.push(event);
    const last = events.at(-1);
    if (last?.type !== 'done') {
      problems.push(`${dialect.name}: the provider did not send the history: ${JSON.stringify(last)}`);
      continue;
    }
    for (const problem of dialect.requestProblems(bodies[0])) problems.push(`${dialect.name}: ${problem}`);
  }
  return problems;
}
