import type { AgentRun } from '@agent-core/core';
import { exitCodes } from '../exit-codes.js';
import { cliWords } from '../output/cli-words.js';
import { noTextMessage } from '../output/render-events.js';
import type { Conversation } from '../sessions/conversation.js';
import { exitCodeOf, reportPause, summaryLine } from './run-outcome.js';
import { type RunIo, untilDone } from './run-io.js';

/** `chat` / `run`: one prompt, streamed to its end; the exit code says how it ended. */
export async function chatCommand(conversation: Conversation, prompt: string, io: RunIo): Promise<number> {
  return finishRun(conversation, conversation.prompt(prompt), io);
}

/** Streams a run to its end and reports it: the summary line, a pause, the exit code. */
export async function finishRun(conversation: Conversation, run: AgentRun, io: RunIo): Promise<number> {
  const { interrupted } = await untilDone(run);
  const result = await run.result();
  if (!io.json)
    io.errors.write(
      `${io.errorStyle.dim(summaryLine(result, conversation.store.kind === 'memory' ? undefined : conversation.session.id))}\n`,
    );
  io.tracer?.print(io.errors);
  if (result.terminateReason === 'await_user')
    await reportPause(conversation.session, io.json ? io.errors : io.out, io.json ? io.errorStyle : io.style);
  if (result.error !== undefined && (result.error as { code?: string }).code === 'approval_claimed') {
    // On a terminal or a pipe the renderer has shown the error; with --json, stdout holds only events.
    if (io.json) io.errors.write(`agent-core: ${cliWords(result.error.message)}\n`);
    return exitCodes.failed;
  }
  // A command whose job is to print an answer did not get one: say so, and fail.
  if (io.json && result.terminateReason === 'completed' && result.text.trim() === '')
    io.errors.write(`agent-core: ${noTextMessage}\n`);
  return exitCodeOf(result, interrupted);
}
