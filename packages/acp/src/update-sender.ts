import type { AgentContext, SessionUpdate } from '@agentclientprotocol/sdk';
import type { Logger } from '@agent-core/core';

/** Where a session's updates go: the editor's connection, while it lasts. */
export interface UpdateTarget {
  readonly client: AgentContext;
  readonly logger: Logger;
  readonly disconnected: boolean;
}

/**
 * Sends one session's `session/update`s in order. Text chunks that come while
 * earlier updates are still being written are merged into one, so a fast
 * model never outruns the pipe to the editor; a chunk alone goes out at once.
 * Contract: `flushed()` resolves once every update sent before it is written;
 * nothing is sent once the editor has gone.
 */
export class UpdateSender {
  readonly #sessionId: string;
  readonly #target: UpdateTarget;
  #sent: Promise<void> = Promise.resolve();
  /** Updates handed to the SDK and not yet written. */
  #writing = 0;
  /** A text chunk held back while earlier updates are written, merged with the next ones of its kind. */
  #held: { kind: 'agent_message_chunk' | 'agent_thought_chunk'; text: string } | undefined;

  constructor(sessionId: string, target: UpdateTarget) {
    this.#sessionId = sessionId;
    this.#target = target;
  }

  /** Sends an update after every one sent before it. */
  send(update: SessionUpdate): void {
    if (this.#target.disconnected) return;
    if (
      (update.sessionUpdate === 'agent_message_chunk' || update.sessionUpdate === 'agent_thought_chunk') &&
      update.content.type === 'text'
    ) {
      const held = this.#held;
      if (held !== undefined && held.kind === update.sessionUpdate) {
        held.text += update.content.text;
        return;
      }
      if (this.#writing > 0) {
        this.#release();
        this.#held = { kind: update.sessionUpdate, text: update.content.text };
        return;
      }
    }
    this.#release();
    this.#write(update);
  }

  /** Resolves once every update sent so far is written. */
  flushed(): Promise<void> {
    this.#release();
    return this.#sent;
  }

  #write(update: SessionUpdate): void {
    this.#writing++;
    const sent = this.#target.client.notify('session/update', { sessionId: this.#sessionId, update });
    this.#sent = sent
      .catch((error: unknown) =>
        this.#target.logger.debug('a session update could not be sent', {
          sessionId: this.#sessionId,
          error: String(error),
        }),
      )
      .finally(() => {
        this.#writing--;
        // A write done: what was held goes next, behind the writes still queued.
        this.#release();
      });
  }

  /** Writes the merged text chunk held back, if any. */
  #release(): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    if (this.#target.disconnected) return;
    this.#write({ sessionUpdate: held.kind, content: { type: 'text', text: held.text } });
  }
}
