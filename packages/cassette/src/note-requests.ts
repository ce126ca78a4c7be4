import type {
  AssistantMessage,
  ModelEvent,
  ModelRequest,
  Provider,
  StreamOptions,
  ToolSpec,
} from '@agent-core/core';
import type { RequestSettings } from './cassette-data.js';
import { environmentSecrets } from './environment-secrets.js';
import { emptyHash, hashKey, hashText } from './request-hash.js';
import { HeaderCanon } from './request-header.js';

/**
 * What `noteRequests` writes on a reply: the request it answered, besides its
 * messages (which the history holds), in canonical form. The system prompt
 * and the tools are written whole when they differ from those noted on the
 * previous reply, and by their digest always, so a session of n steps holds
 * its prompt once (or once per change), not n times.
 */
export interface RequestNote {
  model: string;
  /** Digest of the system prompt (canonical, redacted); the same prompt has the same digest. */
  systemDigest: string;
  /** The system prompt (`null`: none), when it differs from the one noted before. */
  system?: string | null;
  /** Digest of the tool list. */
  toolsDigest: string;
  /** The tools as the model saw them, when they differ from those noted before. */
  tools?: readonly ToolSpec[];
  settings: RequestSettings;
}

/** The field of an assistant message that holds its `RequestNote`. */
export const requestNoteField = 'request';

/**
 * Wraps a provider so each reply notes the request it answered (its
 * `RequestNote`, in the assistant message's `request` field, plain JSON). A
 * session stored from such replies replays as a whole cassette: with it,
 * `sessionCassette` compares the system prompt, the tools and the settings
 * too, so a changed prompt is a divergence. The wrapped provider's request
 * and its events are passed on unchanged; the `done` message is a copy with
 * the note added. Use one per conversation (a `SessionManager`'s agent).
 */
export function noteRequests(provider: Provider, options: { secrets?: readonly string[] } = {}): Provider {
  const headers = new HeaderCanon({ secrets: [...environmentSecrets(), ...(options.secrets ?? [])] });
  let lastSystem: string | undefined;
  let lastTools: string | undefined;
  async function* stream(request: ModelRequest, streamOptions?: StreamOptions): AsyncGenerator<ModelEvent> {
    const header = headers.of(request);
    for await (const event of provider.stream(request, streamOptions)) {
      if (event.type !== 'done') {
        yield event;
        continue;
      }
      const systemDigest = digest(header.lines.system);
      const toolsDigest = digest(header.lines.tools);
      const note: RequestNote = {
        model: request.model,
        systemDigest,
        ...(systemDigest === lastSystem ? {} : { system: header.values.system }),
        toolsDigest,
        ...(toolsDigest === lastTools ? {} : { tools: header.values.tools }),
        settings: header.values.settings,
      };
      lastSystem = systemDigest;
      lastTools = toolsDigest;
      const noted = { ...event.message, [requestNoteField]: note } as AssistantMessage;
      yield { type: 'done', message: noted };
    }
  }
  const wrapped: Provider = { name: provider.name, stream };
  if (provider.countTokens !== undefined) wrapped.countTokens = (request) => provider.countTokens!(request);
  if (provider.modelInfo !== undefined) wrapped.modelInfo = (model) => provider.modelInfo?.(model);
  return wrapped;
}

function digest(line: string): string {
  return hashKey(hashText(emptyHash, line));
}
