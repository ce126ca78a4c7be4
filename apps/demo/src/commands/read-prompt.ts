import type { Readable } from 'node:stream';
import { UsageError } from '../parse-args.js';

/** The most a prompt read from stdin may take: more would not fit a model's context anyway. */
export const maxPromptBytes = 4 * 1024 * 1024;

/**
 * `chat` and `run`'s prompt: the argument; stdin when it is not a terminal
 * (or with `-`); both when there are both, the piped input first as context
 * and the argument after it, as `cat file | agent-core chat "explain"`
 * reads. Input over `maxPromptBytes` is refused, and so is no prompt at all.
 */
export async function readPrompt(
  args: { prompt: string; promptFromStdin: boolean },
  stdin: Readable & { isTTY?: boolean } = process.stdin,
): Promise<string> {
  const input = args.promptFromStdin || stdin.isTTY !== true ? await readAll(stdin) : '';
  if (args.promptFromStdin) {
    if (input.trim() === '')
      throw new UsageError(
        `'chat -' reads the prompt from stdin, which was empty: echo "What is 15 * 3?" | agent-core chat -`,
      );
    return input;
  }
  if (input.trim() === '') {
    if (args.prompt === '')
      throw new UsageError(
        'chat needs a prompt: agent-core chat "What is 15 * 3?", or piped in: cat question.txt | agent-core chat',
      );
    return args.prompt;
  }
  return args.prompt === '' ? input : `${input.trimEnd()}\n\n${args.prompt}`;
}

async function readAll(stdin: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > maxPromptBytes) {
      stdin.destroy();
      throw new UsageError(
        `The prompt piped in is over ${maxPromptBytes / 1024 / 1024} MiB, more than any model takes at once. Pipe in a part of it (head -c 1000000 file | agent-core chat "...") or point the agent at the file with --tools fs.`,
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
