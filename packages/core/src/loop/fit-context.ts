import type { AgentShared } from './run-state.js';
import type { RunContext } from './run-context.js';
import { AgentError, toAgentError } from '../errors/agent-error.js';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import type { Message } from '../messages/messages.js';
import type { ModelCallResult } from '../orchestrator/orchestrator.js';
import type { ModelRequest } from '../provider/provider.js';
import type { ProviderError } from '../provider/provider-error.js';
import { budgetAfterOverflow } from '../context/budget-after-overflow.js';
import { type CompactionPlan, compactMessages } from '../context/compact-messages.js';
import type { CompactionMessage } from '../messages/compaction-message.js';
import type { ContextWindow, WindowState } from '../context/context-window.js';

/** The request to send, or how the model call ends instead. */
export type FitOutcome = { ok: true; request: ModelRequest } | { ok: false; result: ModelCallResult };

/** The messages a model call sends when the agent has a context window: its view, converted. */
export function windowMessages(window: ContextWindow, shared: AgentShared): readonly Message[] {
  const state = window.sync(shared.messages);
  const convert = shared.options.convertToLlm;
  return convert === undefined ? state.sent : convert(state.view);
}

function markerText(dropped: number): string {
  return `[${dropped} earlier message${dropped === 1 ? ' was' : 's were'} removed to fit the context window.]`;
}

function fail(error: AgentError): FitOutcome {
  return { ok: false, result: { ok: false, reason: 'error', error } };
}

/**
 * Before a model call: counts the request and, when it is over the window's
 * threshold (or the provider reported `overflow`), compacts the history's
 * view, records a `CompactionMessage`, emits `compaction` and returns the
 * request with the compacted messages. An `overflow` also lowers the window's
 * budget for the provider's model for good (`ContextWindow.learnBudget`).
 */
export async function fitContext(
  context: RunContext,
  window: ContextWindow,
  request: ModelRequest,
  overflow?: ProviderError,
): Promise<FitOutcome> {
  const state = context.state;
  const shared = state.shared;
  const provider = shared.options.provider;
  const view = window.sync(shared.messages);
  let budget: number;
  try {
    budget = window.budgetFor(provider, request.model, shared.options.maxOutputTokens);
  } catch (error) {
    return fail(toAgentError(error, 'invalid_config'));
  }
  const overhead = window.overheadTokens(request);
  const estimate = overhead + view.total;
  let measured = estimate;
  if (window.exactCounts && provider.countTokens !== undefined) {
    try {
      measured = await provider.countTokens(request);
    } catch (error) {
      shared.logger.warn('countTokens failed; the context window uses its own estimate', {
        error: String(error),
      });
    }
  }
  if (overflow === undefined) {
    if (measured <= window.threshold * budget) return { ok: true, request };
  } else {
    // The refusal teaches the window a lower budget for good: later calls compact before they send.
    const providerName = overflow.provider ?? provider.name;
    const learned = window.learnBudget(
      providerName,
      request.model,
      budgetAfterOverflow({
        error: overflow,
        measured,
        scale: estimate > 0 ? measured / estimate : 1,
        maxOutputTokens: shared.options.maxOutputTokens,
        view,
        overhead,
        provider: providerName,
        model: request.model,
      }),
    );
    if (learned < budget) budget = learned;
  }
  // A tool call still waiting for its result must not be parted from it: compaction waits for the next call.
  if (state.pending.size > 0)
    return overflow === undefined ? { ok: true, request } : fail(overflowError(overflow));

  const scale = estimate > 0 ? measured / estimate : 1;
  const placeholder = window.counter({ role: 'user', content: markerText(1_000_000) });
  const userPinned = window.pinned;
  let plan: CompactionPlan;
  try {
    plan = compactMessages({
      messages: view.view,
      counts: view.counts,
      overhead,
      // After an overflow the provider counts more than we do: aim lower than where we are now.
      target:
        overflow === undefined
          ? (window.targetRatio * budget) / scale
          : (Math.min(measured, budget) * window.targetRatio) / scale,
      limit: overflow === undefined ? budget / scale : Number.POSITIVE_INFINITY,
      markerTokens: placeholder,
      startsWithMarker: view.marker !== undefined,
      ...(userPinned === undefined
        ? {}
        : { pinned: (message, position) => userPinned(message, view.indexes[position] as number) }),
    });
  } catch (error) {
    return fail(toAgentError(error));
  }
  const droppedNow = plan.dropped.length - (view.marker === undefined ? 0 : 1);
  if (droppedNow <= 0) {
    return overflow === undefined
      ? { ok: true, request }
      : fail(
          new ContextOverflowError(
            'The provider refused the request as longer than its context window, and nothing more can be dropped: the pinned and system-level messages, the newest user message and the newest tool call with its results are too large on their own.',
            { cause: overflow },
          ),
        );
  }

  const dropped = (view.marker?.droppedMessages ?? 0) + droppedNow;
  let content: CompactionMessage['content'] = markerText(dropped);
  let after = plan.tokensAfter - placeholder + window.counter({ role: 'user', content });
  let summarized = false;
  const summarize = window.summarize;
  if (summarize !== undefined) {
    try {
      const summary = await summarize(
        plan.dropped.map((position) => view.view[position] as (typeof view.view)[number]),
        context.signal,
      );
      const summaryContent =
        typeof summary === 'string'
          ? `Summary of ${dropped === 1 ? 'an earlier message' : `${dropped} earlier messages`}, removed to fit the context window:\n\n${summary}`
          : summary.content;
      const summaryAfter =
        plan.tokensAfter - placeholder + window.counter({ role: 'user', content: summaryContent });
      if (overflow !== undefined || summaryAfter <= budget / scale) {
        content = summaryContent;
        after = summaryAfter;
        summarized = true;
      } else {
        shared.logger.warn('the summary would not fit the context window; a marker is sent instead', {
          tokens: Math.round(summaryAfter * scale),
          budget,
        });
      }
    } catch (error) {
      if (state.stopCause === undefined) {
        shared.logger.warn('summarize failed; a marker is sent instead', { error: String(error) });
      }
    }
    if (state.stopCause !== undefined) {
      return {
        ok: false,
        result: {
          ok: false,
          reason: state.stopCause,
          error: new AgentError(state.stopCause, 'The run stopped while the context was being compacted.'),
        },
      };
    }
  }

  const marker = recordCompaction(context, window, view, plan, {
    content,
    dropped,
    tokensBefore: Math.round(measured),
    tokensAfter: Math.round(after * scale),
    summarized,
  });
  context.deliver({
    type: 'compaction',
    runId: state.runId,
    turn: state.turn,
    seq: state.seq++,
    reason: overflow === undefined ? 'budget' : 'overflow',
    droppedMessages: droppedNow,
    tokensBefore: marker.tokensBefore,
    tokensAfter: marker.tokensAfter,
    summarized,
    message: marker,
  });
  return { ok: true, request: { ...request, messages: context.modelMessages() } };
}

/** Appends the compaction record to the history and moves the window's view to it. */
function recordCompaction(
  context: RunContext,
  window: ContextWindow,
  view: WindowState,
  plan: CompactionPlan,
  fields: {
    content: CompactionMessage['content'];
    dropped: number;
    tokensBefore: number;
    tokensAfter: number;
    summarized: boolean;
  },
): CompactionMessage {
  const history = context.state.shared.messages;
  // Everything from `boundary` on is kept and is a run of the history; kept messages before it are listed.
  const boundary = Math.max(plan.cut, view.headLength);
  const keptBefore: number[] = [];
  for (const position of plan.kept)
    if (position < boundary) keptBefore.push(view.indexes[position] as number);
  const marker: CompactionMessage = {
    role: 'compaction',
    content: fields.content,
    keptBefore,
    firstKept: boundary < view.view.length ? (view.indexes[boundary] as number) : history.length,
    droppedMessages: fields.dropped,
    tokensBefore: fields.tokensBefore,
    tokensAfter: fields.tokensAfter,
    summarized: fields.summarized,
  };
  context.append(marker);
  window.reset(view, history, history.length - 1);
  return marker;
}

/** The run's error when the provider still refuses the request as too long. */
export function overflowError(error: ProviderError, compacted = false): ContextOverflowError {
  return new ContextOverflowError(
    compacted
      ? `The provider still refused the request as longer than its context window after one compaction: ${error.message} Lower contextWindow.targetRatio or budgetTokens, or use exact counts (contextWindow.exactCounts).`
      : `The provider refused the request as longer than its context window: ${error.message} Set contextWindow on the Agent so the history is compacted before it overflows.`,
    { cause: error },
  );
}
