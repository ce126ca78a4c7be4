import { readFile, stat } from 'node:fs/promises';
import { parse, TomlError } from 'smol-toml';
import { type ConfigFile, checkConfigFile } from './config-file.js';
import { ConfigFileError } from './config-file-error.js';
import { keyLines, lineOf } from './key-lines.js';

/** A config file bigger than this is refused unread: no real one comes close. */
export const maxConfigBytes = 256 * 1024;

/** A config file as read: its values and the line of each key, for `config show`. */
export interface LoadedConfigFile {
  path: string;
  config: ConfigFile;
  lines: Map<string, number>;
}

/**
 * Reads and checks one TOML config file. A file that does not exist gives
 * undefined; one that is too large, unreadable, malformed or holds a key or
 * value the CLI does not take throws `ConfigFileError` naming the file and line.
 */
export async function readConfigFile(path: string): Promise<LoadedConfigFile | undefined> {
  let text: string;
  try {
    const info = await stat(path);
    // A folder, a device (/dev/zero never ends) or a pipe is refused unread.
    if (!info.isFile())
      throw new ConfigFileError([{ path, line: undefined, message: 'is not a regular file' }]);
    if (info.size > maxConfigBytes) {
      throw new ConfigFileError([
        {
          path,
          line: undefined,
          message: `is ${Math.ceil(info.size / 1024)} KiB; a config file may hold at most ${maxConfigBytes / 1024} KiB`,
        },
      ]);
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    if (error instanceof ConfigFileError) throw error;
    throw new ConfigFileError(
      [
        {
          path,
          line: undefined,
          message: `cannot be read (${(error as { code?: string }).code ?? String(error)})`,
        },
      ],
      { cause: error },
    );
  }
  return parseConfigText(path, text);
}

/** Parses and checks config text read from `path` (see `readConfigFile`). */
export function parseConfigText(path: string, text: string): LoadedConfigFile {
  let parsed: unknown;
  try {
    // Nesting is capped and `__proto__`-style keys refused, so a hostile file cannot exhaust the stack or reach a prototype.
    parsed = parse(text, { maxDepth: 16, unsafeKeyBehaviour: 'throw' });
  } catch (error) {
    if (error instanceof TomlError) {
      const reason = error.message.replace(/^Invalid TOML document: /, '').split('\n')[0];
      throw new ConfigFileError([{ path, line: error.line, message: `invalid TOML: ${reason}` }], {
        cause: error,
      });
    }
    throw new ConfigFileError([{ path, line: undefined, message: `invalid TOML: ${String(error)}` }], {
      cause: error,
    });
  }
  const lines = keyLines(text);
  const issues = checkConfigFile(parsed);
  if (issues.length > 0) {
    throw new ConfigFileError(
      issues.map((issue) => ({
        path,
        line: lineOf(lines, issue.path),
        message: `'${issue.path.join('.')}' ${issue.message}`,
      })),
    );
  }
  return { path, config: parsed as ConfigFile, lines };
}
