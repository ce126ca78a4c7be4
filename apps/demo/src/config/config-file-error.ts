import { ConfigError } from '@agent-core/core';

/** One problem of a config file: where it is and what is wrong. */
export interface ConfigFileProblem {
  path: string;
  /** 1-based; undefined when the problem is the whole file (too large, unreadable). */
  line: number | undefined;
  message: string;
}

/**
 * A config file that cannot be used: malformed TOML, an unknown key, a value
 * of the wrong kind, a file too large or unreadable. Its message names the
 * file and line of each problem (`config.toml:12: ...`); `problems` lists them.
 */
export class ConfigFileError extends ConfigError {
  readonly problems: readonly ConfigFileProblem[];

  constructor(problems: readonly ConfigFileProblem[], options: { cause?: unknown } = {}) {
    super(problems.map(formatProblem).join('\n'), options);
    this.name = 'ConfigFileError';
    this.problems = problems;
  }
}

/** `file:line: message`, the form editors and terminals make clickable. */
export function formatProblem(problem: ConfigFileProblem): string {
  return `${problem.path}${problem.line === undefined ? '' : `:${problem.line}`}: ${problem.message}`;
}
