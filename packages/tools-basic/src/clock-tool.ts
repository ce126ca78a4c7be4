import { defineTool } from '@agent-core/core';
import { z } from 'zod';

/** Options of `clockTool()`. */
export interface ClockOptions {
  /** Where the time comes from; injectable for tests. Default `() => new Date()`. */
  now?: () => Date;
}

/** The `clock` tool: the current date and time, in an IANA time zone (default UTC). */
export function clockTool(options: ClockOptions = {}) {
  const now = options.now ?? (() => new Date());
  return defineTool({
    name: 'clock',
    description: 'Returns the current date and time, in the given IANA time zone (default UTC).',
    parameters: z.object({
      timeZone: z.string().optional().describe('An IANA time zone such as "Europe/Paris"'),
    }),
    risk: 'read',
    execute: ({ timeZone }) => {
      const zone = timeZone ?? 'UTC';
      let formatted: string;
      try {
        formatted = new Intl.DateTimeFormat('en-CA', {
          timeZone: zone,
          dateStyle: 'short',
          timeStyle: 'long',
          hourCycle: 'h23',
        }).format(now());
      } catch {
        throw new Error(`Unknown time zone '${zone}'. Use an IANA name such as 'UTC' or 'America/New_York'.`);
      }
      return `${formatted} (${zone})`;
    },
  });
}
