/**
 * The JSON the studio's server sends its page: plain data, already cut to
 * size and redacted. The server and the page both import these types, so the
 * two sides cannot drift apart.
 */

/** A text that may have been cut: `size` is the whole text's length in UTF-8 bytes. */
export interface CutText {
  text: string;
  size: number;
  cut: boolean;
}

/** One row of the sessions list: what the store's summary says, without the metadata. */
export interface SessionRow {
  id: string;
  title: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
  pendingApprovalCount: number;
  version: number;
}

/** A page of the sessions list. */
export interface SessionListPage {
  sessions: SessionRow[];
  /** Pass back as `cursor` for the next page; absent on the last one. */
  nextCursor?: string;
  /** Sessions that match the search (all of them without one). */
  matched: number;
  /** When the studio last read every summary from the store (ISO 8601). */
  indexedAt: string;
  /** The store's error when the last refresh failed: the list shown is the last one read. */
  storeError?: string;
}

/** What a block of a message shows. */
export type ViewBlock =
  | { type: 'text'; text: CutText }
  | { type: 'thinking'; text: CutText; redacted: boolean }
  | { type: 'toolCall'; id: string; name: string; input: CutText }
  | { type: 'image'; mimeType: string; size: number };

/** A message of a conversation as the page shows it. */
export interface ViewMessage {
  /** Its index in the history. */
  index: number;
  role: string;
  blocks: ViewBlock[];
  toolCallId?: string;
  toolName?: string;
  isError?: boolean;
  stopReason?: string;
  model?: string;
  usage?: ViewUsage;
  errorMessage?: string;
}

/** Tokens and cost (US dollars, when known). */
export interface ViewUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost?: number;
}

/** A line of a diff: kept, removed or added. */
export interface DiffLine {
  kind: ' ' | '-' | '+';
  text: string;
}

/** A call waiting for a decision, as the inbox shows it. */
export interface ViewApproval {
  sessionId: string;
  sessionTitle: string;
  toolCallId: string;
  toolName: string;
  risk: string;
  reason: string;
  input: CutText;
  agentPath: string[];
  requestedAt: string;
  /** For a file edit or write: the change as a diff. */
  diff?: { path: string; lines: DiffLine[]; cut: boolean };
}

/**
 * An events-log record cut down to what a timeline draws: times, durations,
 * usage, outcomes; never the text of a message or a tool's output.
 */
export type TimelineRecord =
  | { seq: number; type: 'run_started'; runId: string; at: string }
  | {
      seq: number;
      type: 'message';
      role: string;
      /** When the message joined the history, if the log recorded it. */
      at?: string;
      usage?: ViewUsage;
      stopReason?: string;
      model?: string;
      errorMessage?: string;
      toolCalls?: { id: string; name: string }[];
      toolCallId?: string;
      toolName?: string;
      isError?: boolean;
      /** For a compaction record: messages no longer sent, tokens before and after. */
      compaction?: { droppedMessages: number; tokensBefore: number; tokensAfter: number };
    }
  | { seq: number; type: 'tool_started'; toolCallId: string; toolName: string; at: string }
  | {
      seq: number;
      type: 'tool_finished';
      toolCallId: string;
      toolName: string;
      isError: boolean;
      durationMs: number;
    }
  | {
      seq: number;
      type: 'run_ended';
      runId: string;
      reason: string;
      usage: ViewUsage;
      at: string;
      pendingApprovals: number;
      /** Why a run that ended with `error` failed, when the log recorded it. */
      error?: string;
    };

/**
 * Something the studio saw happen in a run it ran itself (a retry, an error)
 * that the events log does not keep; only for runs in the studio's process.
 */
export interface LiveMark {
  runId: string;
  kind: 'retry' | 'error' | 'compaction' | 'approval';
  at: string;
  text: string;
}

/** A problem met while reading a session: what could not be read and the store's error. */
export interface ReadProblem {
  /** What was being read: the session, its snapshot, its events log. */
  part: string;
  message: string;
  code?: string;
}

/** A session's page: its state, its conversation and its log for the timelines. */
export interface SessionView {
  id: string;
  title: string;
  status: string;
  createdAt: string;
  updatedAt: string;
  version: number;
  lastSeq: number;
  usage: ViewUsage;
  messages: ViewMessage[];
  records: TimelineRecord[];
  marks: LiveMark[];
  approvals: ViewApproval[];
  /** Empty when everything could be read. */
  problems: ReadProblem[];
  /** Whether this studio can decide calls (it was given an agent factory, or the app takes decisions over). */
  canDecide: boolean;
  /** Whether this studio can run a prompt (it was given an agent factory). */
  canPrompt: boolean;
}

/** A decision the page sends for one waiting call. */
export interface DecisionInput {
  toolCallId: string;
  decision: 'allow' | 'deny';
  reason?: string;
}

/** What became of a call someone had already decided. */
export interface DecidedOutcome {
  toolCallId: string;
  toolName: string;
  isError: boolean;
  result: string;
}

/** The answer to a decision. */
export type DecisionAnswer =
  | { outcome: 'resumed'; runId: string }
  | {
      outcome: 'enqueued';
      /** The work that resumes the run in another process (a worker), as the app named it. */
      operationId: string;
      state?: string;
      alreadyEnqueued: boolean;
      message: string;
    }
  | { outcome: 'already_decided'; decided: DecidedOutcome[]; message: string }
  | { outcome: 'claimed_elsewhere'; message: string }
  | { outcome: 'refused'; message: string; code?: string };

/** The answer to a prompt sent from the page. */
export type PromptAnswer =
  | { outcome: 'started'; runId: string }
  | { outcome: 'refused'; message: string; code?: string };

/** What the live stream of a session sends, one server-sent event each. */
export type LiveUpdate =
  | { type: 'records'; records: TimelineRecord[]; messages: ViewMessage[]; lastSeq: number }
  | { type: 'delta'; runId: string; text: string }
  | { type: 'mark'; mark: LiveMark }
  | { type: 'changed' }
  | { type: 'store_error'; message: string };
