import { useState } from 'preact/hooks';
import type { CutText, ViewBlock, ViewMessage } from '../shared/studio-data.js';
import { getJson } from './api.js';
import { formatBytes, formatCost, formatTokens } from './format.js';
import { Markdown } from './markdown.js';

const windowSize = 100;

/**
 * A session's conversation: user prompts and answers as markdown, thinking
 * folded, tool calls with their input and results with their output, each
 * cut with its size and shown whole (up to 1 MB) on request. The latest 100
 * messages first; earlier ones a hundred at a time.
 */
export function Conversation({
  sessionId,
  messages,
}: {
  sessionId: string;
  messages: readonly ViewMessage[];
}) {
  const [shown, setShown] = useState(windowSize);
  const from = Math.max(0, messages.length - shown);
  return (
    <section aria-labelledby="conversation-heading">
      <h2 id="conversation-heading">Conversation</h2>
      {messages.length === 0 && <p class="muted">No message yet.</p>}
      {from > 0 && (
        <button type="button" onClick={() => setShown(shown + windowSize)}>
          Show {Math.min(windowSize, from)} earlier messages ({from} not shown)
        </button>
      )}
      <ol class="conversation">
        {messages.slice(from).map((message) => (
          <MessageView key={message.index} sessionId={sessionId} message={message} />
        ))}
      </ol>
    </section>
  );
}

function MessageView({ sessionId, message: given }: { sessionId: string; message: ViewMessage }) {
  const [whole, setWhole] = useState<ViewMessage | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const message = whole ?? given;
  const isCut =
    message.blocks.some((block) => 'text' in block && block.text.cut) ||
    message.blocks.some((block) => block.type === 'toolCall' && block.input.cut);
  const showWhole = async () => {
    try {
      setWhole(
        await getJson<ViewMessage>(
          `/api/sessions/${encodeURIComponent(sessionId)}/messages/${message.index}`,
        ),
      );
    } catch (problem) {
      setError((problem as Error).message);
    }
  };
  return (
    <li
      class={`message role-${message.role}${message.isError === true ? ' failed' : ''}`}
      data-index={message.index}
    >
      <div class="message-head">
        <strong>{roleLabel(message)}</strong>
        {message.model !== undefined && <span class="muted"> {message.model}</span>}
        {message.usage !== undefined && (
          <span class="muted">
            {' '}
            · {formatTokens(message.usage)}
            {message.usage.cost === undefined ? '' : ` · ${formatCost(message.usage.cost)}`}
          </span>
        )}
        {message.stopReason !== undefined &&
          message.stopReason !== 'end_turn' &&
          message.stopReason !== 'tool_use' && (
            <span class="status status-failed"> {message.stopReason}</span>
          )}
      </div>
      {message.errorMessage !== undefined && (
        <p class="banner error" role="note">
          {message.errorMessage}
        </p>
      )}
      {message.blocks.map((block, index) => (
        <BlockView key={index} block={block} role={message.role} />
      ))}
      {isCut && whole === undefined && (
        <button type="button" onClick={showWhole}>
          Show all of this message
        </button>
      )}
      {error !== undefined && <p class="banner error">{error}</p>}
    </li>
  );
}

function roleLabel(message: ViewMessage): string {
  switch (message.role) {
    case 'user':
      return 'User';
    case 'assistant':
      return 'Assistant';
    case 'toolResult':
      return `Result of ${message.toolName ?? 'a tool'}${message.isError === true ? ' (error)' : ''}`;
    case 'compaction':
      return 'Compaction';
    default:
      return message.role;
  }
}

function BlockView({ block, role }: { block: ViewBlock; role: string }) {
  switch (block.type) {
    case 'text':
      return role === 'toolResult' ? (
        <Output text={block.text} />
      ) : (
        <>
          <Markdown text={block.text.text} />
          <CutNote text={block.text} />
        </>
      );
    case 'thinking':
      return (
        <details class="thinking">
          <summary>Thinking{block.redacted ? ' (redacted by the provider)' : ''}</summary>
          <pre>{block.text.text}</pre>
          <CutNote text={block.text} />
        </details>
      );
    case 'toolCall':
      return (
        <details class="tool-call">
          <summary>
            Calls <code>{block.name}</code> <span class="muted">{block.id}</span>
          </summary>
          <pre>{block.input.text}</pre>
          <CutNote text={block.input} />
        </details>
      );
    case 'image':
      return (
        <p class="muted">
          [image {block.mimeType}, {formatBytes(block.size)}]
        </p>
      );
    default:
      return null;
  }
}

function Output({ text }: { text: CutText }) {
  return (
    <>
      <pre class="output">{text.text}</pre>
      <CutNote text={text} />
    </>
  );
}

function CutNote({ text }: { text: CutText }) {
  if (!text.cut) return null;
  return (
    <p class="cut-note">
      Cut: {formatBytes(text.size)} in all, the first {formatBytes(text.text.length)} shown.
    </p>
  );
}
