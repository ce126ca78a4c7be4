import { ConfigError } from '../errors/config-error.js';

/** Options of `RuntimeInfo.fromEnvironment`. */
export interface RuntimeInfoOptions {
  model?: string;
  provider?: string;
  /** An IANA time zone such as `Europe/Paris`. Default: the runtime's own. */
  timezone?: string;
  /** The current time. Default: now. */
  now?: Date;
}

/**
 * What the runtime section of a system prompt tells the model: model,
 * provider, time zone and current time. Never the OS, architecture, host
 * name, user name or paths, so a sandboxed agent learns nothing of its host.
 */
export class RuntimeInfo {
  readonly model: string | undefined;
  readonly provider: string | undefined;
  readonly timezone: string | undefined;
  /** The current time as `YYYY-MM-DD HH:MM` in `timezone`. */
  readonly time: string | undefined;

  constructor(fields: { model?: string; provider?: string; timezone?: string; time?: string }) {
    this.model = fields.model;
    this.provider = fields.provider;
    this.timezone = fields.timezone;
    this.time = fields.time;
  }

  /**
   * Reads the time zone and the time from the runtime (through `Intl` and
   * `Date`, available everywhere). Throws `ConfigError` for an unknown time zone.
   */
  static fromEnvironment(options: RuntimeInfoOptions = {}): RuntimeInfo {
    const timezone = options.timezone ?? new Intl.DateTimeFormat().resolvedOptions().timeZone;
    return new RuntimeInfo({
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(options.provider === undefined ? {} : { provider: options.provider }),
      timezone,
      time: formatTime(options.now ?? new Date(), timezone),
    });
  }

  /** The section's lines, one a field that is known. */
  lines(): string[] {
    const lines: string[] = [];
    if (this.model !== undefined) lines.push(`- Model: ${this.model}`);
    if (this.provider !== undefined) lines.push(`- Provider: ${this.provider}`);
    if (this.timezone !== undefined) lines.push(`- Timezone: ${this.timezone}`);
    if (this.time !== undefined) lines.push(`- Current time: ${this.time}`);
    return lines;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatTime(date: Date, timezone: string): string {
  let format = formats.get(timezone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat('en-CA', {
        timeZone: timezone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      });
    } catch (error) {
      throw new ConfigError(`Unknown time zone '${timezone}': use an IANA name such as 'Europe/Paris'.`, {
        cause: error,
      });
    }
    formats.set(timezone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(date)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
