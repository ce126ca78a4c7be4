import { RequestError } from '@agentclientprotocol/sdk';
import type { ImageBlock, TextBlock } from '@agent-core/core';
import type { AcpCommand } from './serve-acp-options.js';

// `/name` then the input; `/usr/bin/env` is a path, not a command.
const commandPattern = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/;

/**
 * The command a prompt runs, when its first block is text that starts with
 * `/name` and the server runs commands. A name the server does not offer is
 * invalid params naming the commands there are; a command offered without
 * `run`, or any other prompt, goes to the model (undefined).
 */
export function findCommand(
  content: readonly (TextBlock | ImageBlock)[],
  commands: readonly AcpCommand[],
): { command: AcpCommand; input: string } | undefined {
  if (!commands.some((command) => command.run !== undefined)) return undefined;
  const first = content[0];
  if (first?.type !== 'text') return undefined;
  const match = commandPattern.exec(first.text.trim());
  if (match === null) return undefined;
  const name = match[1] as string;
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    throw RequestError.invalidParams(
      { command: name, commands: commands.map((candidate) => candidate.name) },
      `unknown command '/${name}'; the commands are ${commands.map((candidate) => `/${candidate.name}`).join(', ')}. A prompt for the model must not start with '/' and a word.`,
    );
  }
  if (command.run === undefined) return undefined;
  const rest = [
    match[2] ?? '',
    ...content.slice(1).map((block) => (block.type === 'text' ? block.text : '')),
  ];
  return { command, input: rest.join('\n').trim() };
}

/** A command as the editor is told of it: without the server's own `run`. */
export function advertised(command: AcpCommand): AcpCommand {
  const { run: _run, ...shown } = command;
  return shown;
}
