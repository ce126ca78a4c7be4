import { maxToolInputDepth } from '../loop/tool-input-problem.js';

/** The deepest nesting a session's `metadata` may have: the limit of a tool call's input. */
export const maxSessionMetadataDepth = maxToolInputDepth;

/**
 * The deepest nesting of any other part of a session: each message, each
 * pending approval, each field of a log entry, each other field of a state.
 * Four times the tool input limit: a message holds a tool call's input three
 * levels down, and a subagent's paused state holds its own messages inside
 * a pending approval, so parts the loop makes stay well inside it.
 */
export const maxSessionPartDepth = 4 * maxToolInputDepth;

/** Where a value is nested too deep: the path of the part that holds it, and the limit it passed. */
export interface SessionDepthProblem {
  /** The part's path: `metadata`, `messages.3`, `pendingApprovals.0`, `message`. */
  field: string;
  limit: number;
  /** A sentence that says so, for an error message. */
  detail: string;
}

/**
 * The first part of a stored object (a session state or a log entry) nested
 * deeper than its limit, or undefined. Each field is a part, except an
 * array's, whose items are parts each (a message of `messages`, an approval
 * of `pendingApprovals`); `metadata` of a state has the tool input limit.
 * Such values cannot be stored: copying or serialising them overflows the
 * stack a few thousand levels down, and the limit keeps far from that.
 */
export function sessionDepthProblem(
  container: object,
  options: { metadata?: boolean } = {},
): SessionDepthProblem | undefined {
  for (const key of Object.keys(container)) {
    const value = (container as Record<string, unknown>)[key];
    if (typeof value !== 'object' || value === null) continue;
    if (options.metadata === true && key === 'metadata') {
      if (deeperThan(value, maxSessionMetadataDepth))
        return {
          field: key,
          limit: maxSessionMetadataDepth,
          detail: `it is nested more than ${maxSessionMetadataDepth} levels deep, the limit of a session's metadata (as of a tool call's input)`,
        };
      continue;
    }
    const parts = Array.isArray(value) ? value : [value];
    for (let index = 0; index < parts.length; index++)
      if (deeperThan(parts[index], maxSessionPartDepth))
        return {
          field: parts === value ? `${key}.${index}` : key,
          limit: maxSessionPartDepth,
          detail: `it is nested more than ${maxSessionPartDepth} levels deep, the limit of each part of a session`,
        };
  }
  return undefined;
}

/** Whether `value` holds objects or arrays more than `limit` levels deep (`value` itself is level 1). */
function deeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit < 1) return true;
  // Recursion stops at the limit, so a value nested any deeper costs at most `limit` frames.
  if (Array.isArray(value)) {
    for (const item of value) if (deeperThan(item, limit - 1)) return true;
    return false;
  }
  for (const key in value) if (deeperThan((value as Record<string, unknown>)[key], limit - 1)) return true;
  return false;
}
