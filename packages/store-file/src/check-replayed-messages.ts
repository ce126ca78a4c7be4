import {
  AgentError,
  type AgentMessage,
  checkSessionState,
  newSessionState,
  type SessionLogRecord,
} from '@agent-core/core';

/** A replayed record whose message is not one a session can hold, and why. */
export interface InvalidReplayedMessage {
  /** Its index in the records checked. */
  position: number;
  /** The bad field of the message and what is wrong with it. */
  problem: string;
}

/**
 * Checks the messages of log records a load replays against core's session
 * schema, as a save would: a record that parses but holds a message no
 * session can hold (a byte flipped in a key, say) is damage to report with
 * its line, not a state the next save refuses. Resolves undefined when all pass.
 */
export async function checkReplayedMessages(
  records: readonly SessionLogRecord[],
): Promise<InvalidReplayedMessage | undefined> {
  const positions: number[] = [];
  const messages: AgentMessage[] = [];
  records.forEach((record, position) => {
    if (record.event.type !== 'message') return;
    positions.push(position);
    messages.push(record.event.message);
  });
  if (messages.length === 0) return undefined;
  try {
    await checkSessionState(newSessionState({ id: 'replayed', messages }));
    return undefined;
  } catch (error) {
    if (!AgentError.isInstance(error) || error.code !== 'invalid_session_state') throw error;
    const field = String((error as { field?: unknown }).field ?? '');
    const match = /^messages\.(\d+)(?:\.(.*))?$/.exec(field);
    const index = match === null ? 0 : Number(match[1]);
    const marker = `field '${field}': `;
    const from = error.message.indexOf(marker);
    const to = error.message.indexOf(' Nothing was written');
    const detail =
      from < 0 || to < from ? 'not a valid message' : error.message.slice(from + marker.length, to);
    return {
      position: positions[index] ?? positions[0] ?? 0,
      problem: `its message is not one a session can hold (${match?.[2] === undefined ? 'the message' : `field '${match[2]}'`}: ${detail})`,
    };
  }
}
