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
  const metadata = options.metadata === true ? (container as { metadata?: unknown }).metadata : undefined;
  if (deeperThan(metadata, maxSessionMetadataDepth))
    return {
      field: 'metadata',
      limit: maxSessionMetadataDepth,
      detail: `it is nested more than ${maxSessionMetadataDepth} levels deep, the limit of a session's metadata (as of a tool call's input)`,
    };
  // One walk answers for what every store writes: with the container at most this deep, each field
  // and each item of an array field is within the limit. Only a deeper one is looked at part by part.
  if (!deeperThan(container, maxSessionPartDepth + 1)) return undefined;
  for (const key of Object.keys(container)) {
    const value = (container as Record<string, unknown>)[key];
    if (key === 'metadata' && options.metadata === true) continue;
    if (!Array.isArray(value)) {
      if (deeperThan(value, maxSessionPartDepth)) return partProblem(key);
      continue;
    }
    for (let index = 0; index < value.length; index++)
      if (deeperThan(value[index], maxSessionPartDepth)) return partProblem(`${key}.${index}`);
  }
  return undefined;
}

function partProblem(field: string): SessionDepthProblem {
  return {
    field,
    limit: maxSessionPartDepth,
    detail: `it is nested more than ${maxSessionPartDepth} levels deep, the limit of each part of a session`,
  };
}

/** Whether `value` holds objects or arrays more than `limit` levels deep (`value` itself is level 1). */
function deeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit < 1) return true;
  // Recursion stops at the limit, so a value nested any deeper costs at most `limit` frames.
  // Members are tested before the call: most are strings and numbers.
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === 'object' && item !== null && deeperThan(item, limit - 1)) return true;
    }
    return false;
  }
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key];
    if (typeof member === 'object' && member !== null && deeperThan(member, limit - 1)) return true;
  }
  return false;
}
