import { describeDifferences } from '@agent-core/cassette';
import type { Style } from '../output/terminal-style.js';
import type { ReplayOutcome, ToolRun } from './replay-outcome.js';

/**
 * `agent-core replay`'s report for people: each prompt and what its run made,
 * then whether the run reproduced, or where it diverged (the first request
 * that differs, with its diff) and which tool calls differ.
 */
export function renderReplay(outcome: ReplayOutcome, style: Style): string {
  const lines: string[] = [];
  outcome.prompts.forEach((prompt, index) => {
    const text = prompt.text.length > 60 ? `${prompt.text.slice(0, 59)}…` : prompt.text;
    const ended = prompt.reason === 'completed' ? '' : `, ended ${prompt.reason}`;
    lines.push(
      `prompt ${index + 1} ${JSON.stringify(text)}: ${count(prompt.modelCalls, 'model call')}, ${count(prompt.toolCalls, 'tool call')}${ended}`,
    );
  });
  if (outcome.mode === 'update') {
    lines.push(
      style.bold(
        `Re-recorded session ${outcome.session} as session ${outcome.rerecorded}: ${count(outcome.modelCalls, 'model call')} (the session had ${outcome.recordedModelCalls}). Replay it with: agent-core replay ${outcome.rerecorded}`,
      ),
    );
    if (outcome.divergence === undefined) lines.push('Its requests are the same as the recorded ones.');
  } else if (outcome.reproduced) {
    const upTo = outcome.damage === undefined ? '' : ', up to where its log is damaged';
    lines.push(
      style.green(
        `Reproduced: ${count(outcome.modelCalls, 'model call')} and the tool calls as recorded in session ${outcome.session}${upTo}.`,
      ),
    );
  }
  const divergence = outcome.divergence;
  if (divergence !== undefined) {
    const nearest =
      divergence.nearest === undefined || divergence.nearest === divergence.modelCall
        ? ''
        : ` (the nearest recording is model call ${divergence.nearest})`;
    lines.push(
      style.yellow(
        `${outcome.mode === 'update' ? 'First differs' : 'Diverged'}: ${divergence.summary}${nearest}.`,
      ),
    );
    if (divergence.differences.length > 0) lines.push(describeDifferences(divergence.differences));
  }
  if (outcome.toolDifferences.length > 0) {
    lines.push('Tool calls that differ:');
    for (const difference of outcome.toolDifferences.slice(0, 10)) {
      const { before, after } = difference;
      const call = after ?? before;
      lines.push(`  call ${difference.call} ${call?.name} ${JSON.stringify(call?.input)}:`);
      if (before !== undefined && after !== undefined && before.name === after.name)
        if (JSON.stringify(before.input) !== JSON.stringify(after.input))
          lines.push(`    input before: ${JSON.stringify(before.input)}`);
      lines.push(`    before: ${runText(before)}`, `    after:  ${runText(after)}`);
    }
    if (outcome.toolDifferences.length > 10) lines.push(`  and ${outcome.toolDifferences.length - 10} more`);
  }
  if (outcome.mode === 'replay' && !outcome.reproduced && divergence === undefined)
    lines.push(
      style.yellow(
        `Not reproduced: ${count(outcome.recordedModelCalls - outcome.modelCalls, 'recorded model call')} never asked.`,
      ),
    );
  return `${lines.join('\n')}\n`;
}

function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`;
}

function runText(run: ToolRun | undefined): string {
  if (run === undefined) return '(no such call)';
  const text = typeof run.content === 'string' ? run.content : JSON.stringify(run.content);
  const shown = JSON.stringify(text.length > 200 ? `${text.slice(0, 199)}…` : text);
  return `${run.name}${run.isError ? ' failed' : ''}: ${shown}`;
}
