import { useState } from 'preact/hooks';
import type { PromptAnswer } from '../shared/studio-data.js';
import { postJson } from './api.js';

/**
 * A prompt to the session from the page. Its run goes on in the studio's
 * process; the answer streams into the session's page as it comes (the live
 * stream carries its text and the log's records).
 */
export function PromptBox({
  sessionId,
  disabledBecause,
}: {
  sessionId: string;
  disabledBecause: string | undefined;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const send = async (event: Event) => {
    event.preventDefault();
    if (text.trim() === '') return;
    setBusy(true);
    setProblem(undefined);
    try {
      const answer = await postJson<PromptAnswer>(`/api/sessions/${encodeURIComponent(sessionId)}/prompt`, {
        text,
      });
      if (answer.outcome === 'started') setText('');
      else setProblem(answer.message);
    } catch (error) {
      setProblem((error as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="prompt" onSubmit={send}>
      <label>
        <span>Message to the agent</span>
        <textarea
          rows={3}
          value={text}
          maxLength={100_000}
          disabled={disabledBecause !== undefined}
          onInput={(event) => setText((event.target as HTMLTextAreaElement).value)}
        />
      </label>
      <button type="submit" disabled={busy || disabledBecause !== undefined || text.trim() === ''}>
        Send
      </button>
      {disabledBecause !== undefined && <p class="muted">{disabledBecause}</p>}
      {problem !== undefined && (
        <p class="banner error" role="alert">
          Not sent: {problem}
        </p>
      )}
    </form>
  );
}
