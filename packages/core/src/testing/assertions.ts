import { AgentError } from '../errors/agent-error.js';
import type { AgentMessage } from '../messages/messages.js';
import { type HistoryProblemsOptions, historyProblems } from '../messages/history-problems.js';

/** Throws an `Error` with `message` unless `condition` holds. Needs no test framework. */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/** JSON with object keys sorted, so two values compare by content whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

/** Throws unless `actual` and `expected` have the same JSON content. */
export function checkSameJson(actual: unknown, expected: unknown, what: string): void {
  const left = canonicalJson(actual);
  const right = canonicalJson(expected);
  if (left !== right)
    throw new Error(`${what}: expected ${right.slice(0, 400)} but got ${left.slice(0, 400)}`);
}

/** Awaits `action` and throws unless it rejected with an `AgentError` whose `code` is `code`; returns that error. */
export async function checkRejects(
  action: () => Promise<unknown>,
  code: string,
  what: string,
): Promise<AgentError> {
  let outcome: unknown;
  try {
    await action();
  } catch (error) {
    outcome = error;
    if (AgentError.isInstance(error) && error.code === code) return error;
  }
  throw new Error(
    `${what}: expected a rejection with code '${code}', got ${outcome === undefined ? 'a success' : String(outcome)}`,
  );
}

/** Throws an `Error` listing what is wrong unless the history could be sent to any provider as it is (see `historyProblems`). */
export function checkValidHistory(messages: readonly AgentMessage[], options?: HistoryProblemsOptions): void {
  const problems = historyProblems(messages, options);
  if (problems.length > 0) throw new Error(`The history has problems: ${problems.join('; ')}`);
}
