import { AgentError, ConfigError, restoreSession, type SessionStore } from '@agent-core/core';
import type { DecisionHandOff, HandOffDecisions } from '../../decision-hand-off.js';
import type { DecisionAnswer, DecisionInput } from '../../shared/studio-data.js';
import { describeError } from '../view/describe-error.js';
import type { Redactor } from '../view/redactor.js';
import { answeredCalls, decisionsFor } from './decisions-for.js';

/**
 * Offers decisions to the app's `handOffDecisions`, reading the session from
 * the store as it is now (no agent is made). Resolves the page's answer when
 * the app took them (`enqueued`) or when the studio can say without it what
 * became of the calls (already answered, unknown, or the app's refusal), and
 * undefined when the app declined, so the studio resumes the run itself.
 */
export async function handOffDecision(
  store: SessionStore,
  sessionId: string,
  inputs: readonly DecisionInput[],
  handOff: HandOffDecisions,
  redactor: Redactor,
): Promise<DecisionAnswer | undefined> {
  const { state } = await restoreSession(store, sessionId);
  const chosen = decisionsFor(state, inputs);
  if ('problem' in chosen) return { outcome: 'refused', message: chosen.problem };
  const { open, decided } = answeredCalls(state.messages, chosen.decisions, redactor);
  // A call with its result was decided before (by a worker's run, agent-core approve, another studio): nothing to hand off.
  if (open.length === 0)
    return {
      outcome: 'already_decided',
      decided,
      message: 'This call was already decided, so nothing ran again.',
    };
  let handed: DecisionHandOff | undefined;
  try {
    handed = await handOff(sessionId, open);
  } catch (error) {
    return await handOffRefusal(store, sessionId, chosen.decisions, error, redactor);
  }
  if (handed === undefined) return undefined;
  const operationId = checkedHandOff(handed);
  const stands = typeof handed.state === 'string' && handed.state !== '' ? handed.state : undefined;
  const already = handed.alreadyEnqueued === true;
  const where = `operation ${operationId}${stands === undefined ? '' : ` (${stands})`}`;
  return {
    outcome: 'enqueued',
    operationId: redactor.text(operationId),
    ...(stands === undefined ? {} : { state: redactor.text(stands) }),
    alreadyEnqueued: already,
    message: redactor.text(
      already
        ? `These decisions were already enqueued as ${where}; nothing more was enqueued. A worker resumes the run, not this studio, and the session's page follows it.`
        : `Decided. The resume is enqueued as ${where}: a worker resumes the run, not this studio, and the session's page follows it.`,
    ),
  };
}

/** What a throw of the app's hand-off means on the page; a throw that is not an `AgentError` passes (a failure). */
async function handOffRefusal(
  store: SessionStore,
  sessionId: string,
  decisions: Parameters<HandOffDecisions>[1],
  error: unknown,
  redactor: Redactor,
): Promise<DecisionAnswer> {
  if (!AgentError.isInstance(error)) throw error;
  if (error.code === 'approval_claimed')
    return { outcome: 'claimed_elsewhere', message: describeError(error, redactor) };
  if (error.code === 'approval_already_decided') {
    // Decided between our read and the app's: the store now says what became of the calls.
    const { state } = await restoreSession(store, sessionId);
    const { decided } = answeredCalls(state.messages, decisions, redactor);
    return { outcome: 'already_decided', decided, message: describeError(error, redactor) };
  }
  return { outcome: 'refused', message: describeError(error, redactor), code: error.code };
}

/** The operation id of what the app answered, or `ConfigError` saying what `handOffDecisions` must resolve. */
function checkedHandOff(handed: DecisionHandOff): string {
  const given = handed as Partial<DecisionHandOff> | null;
  if (
    given === null ||
    typeof given !== 'object' ||
    given.outcome !== 'enqueued' ||
    typeof given.operationId !== 'string' ||
    given.operationId === ''
  )
    throw new ConfigError(
      `startStudio's handOffDecisions resolved ${JSON.stringify(handed)?.slice(0, 120)}: it must resolve { outcome: 'enqueued', operationId } once the resume is enqueued, or undefined to let the studio resume the run.`,
    );
  return given.operationId;
}
