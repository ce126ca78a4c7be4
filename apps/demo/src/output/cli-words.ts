/**
 * A library error's message in the CLI's words: what core and the providers
 * say a program should call (`manager.get(id)`, `anthropic({ apiKey })`,
 * `contextWindow.budgetTokens`) becomes what a person types (a command, a
 * flag, a config key). Anything else is kept as it is.
 */
export function cliWords(message: string): string {
  const id = /[Ss]ession '([^']+)'/.exec(message)?.[1] ?? 'ID';
  return message
    .replace(
      /(then )?[Ll]oad the session again \(manager\.close\(id\), then manager\.get\(id\)\)(?: to see ([^,.]+))?(,? and retry)?\./g,
      (_match, then: string | undefined, see: string | undefined, retry: string | undefined) => {
        const again = then === undefined ? 'Run the command again' : 'then run the command again';
        if (see === undefined) return `${again}.`;
        const show = `${then ?? ''}'agent-core sessions show ${id}' shows ${see}`;
        return retry === undefined ? `${show}.` : `${show}; then run the command again.`;
      },
    )
    .replace(
      'Await its result(), cancel it, or steer it; one prompt runs at a time per session.',
      'Wait for its answer, or stop it with Ctrl-C; one prompt runs at a time per session.',
    )
    .replace(
      /pass apiKey to (anthropic|openai)\(\{ apiKey \}\)/g,
      'set api_key in [providers.$1] of the config file',
    )
    .replace(
      /raise contextWindow\.budgetTokens/g,
      'raise context_window in the config file (or --context-window)',
    )
    .replace(
      /Lower contextWindow\.targetRatio or budgetTokens, or use exact counts \(contextWindow\.exactCounts\)\./g,
      'Lower context_window in the config file (or --context-window), or /compact in the REPL.',
    )
    .replace(
      /Set contextWindow on the Agent so the history is compacted before it overflows\./g,
      'Run without --no-compact, so the history is compacted before it overflows.',
    )
    .replace(
      /agent\.pendingApprovals lists what still waits\./g,
      "'agent-core approvals' lists what still waits.",
    )
    .replace(
      /Decide (?:again from|the calls in) agent\.pendingApprovals\./g,
      "'agent-core approvals' lists the calls that wait.",
    )
    .replace(/\(FileSessionStore\.repair\(id\), or ('agent-core sessions repair [^']+')\)/g, '($1)');
}
