/** The exit codes of `agent-core`, one per outcome a script can branch on. */
export const exitCodes = {
  /** The run completed with an answer (or the command did what it was asked). */
  completed: 0,
  /** The run ended with an error or a limit, or the command failed. */
  failed: 1,
  /** Bad usage or configuration. */
  usage: 2,
  /** The run paused: a tool call waits for a person's approval. */
  awaitingApproval: 3,
  /** Interrupted by Ctrl-C (SIGINT). */
  interrupted: 130,
} as const;
