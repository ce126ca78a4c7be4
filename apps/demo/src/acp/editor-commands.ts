import type { AcpCommand } from '@agent-core/acp';
import type { SkillDiscovery } from '@agent-core/skills';
import type { MadeAgentOptions } from '../make-agent/make-agent-options.js';
import { requestCompaction } from '../make-agent/request-compaction.js';
import { sessionUsageText } from '../sessions/session-usage.js';

/**
 * The REPL's commands that make sense in an editor, run by the server: the
 * editor has its own pickers, sessions and permission prompts for the rest.
 * `made` gives how each open session's agent was made (its tools' sources).
 */
export function editorCommands(made: (sessionId: string) => MadeAgentOptions | undefined): AcpCommand[] {
  const commands: AcpCommand[] = [
    {
      name: 'compact',
      description:
        'Compact the history sent to the model before its next call (the full history stays stored)',
      run: (_input, { session }) => `${capitalised(requestCompaction(session.agent))}.`,
    },
    {
      name: 'cost',
      description: 'Tokens and cost of this session so far',
      run: (_input, { session }) => `${capitalised(sessionUsageText(session.usage))}.`,
    },
    {
      name: 'tools',
      description: 'The tools of this session, with their risk and where they come from',
      run: (_input, { sessionId, session }) => {
        const sources = made(sessionId)?.toolSources;
        const lines = session.agent.tools.map((tool) =>
          `- \`${tool.name}\` (${tool.risk ?? 'execute'}) ${sources?.get(tool.name) ?? ''}`.trimEnd(),
        );
        return lines.length === 0 ? 'This session has no tools.' : lines.join('\n');
      },
    },
    {
      name: 'help',
      description: 'The commands',
      run: () => commands.map((command) => `- \`/${command.name}\`: ${command.description}`).join('\n'),
    },
  ];
  return commands;
}

function capitalised(text: string): string {
  return text.replace(/^./, (first) => first.toUpperCase());
}

// An editor shows a command's description on one line: a skill's is cut to this many characters.
const commandDescription = 160;

/**
 * A session's skills as editor commands: `/NAME what to do` goes to the
 * model as a prompt, which loads the skill. A skill named like one of the
 * server's commands is left out by the server (it never shadows one).
 */
export function skillCommands(found: SkillDiscovery | undefined): AcpCommand[] {
  return (found?.skills ?? []).map((skill) => {
    const description = skill.description.replace(/\s+/g, ' ').trim();
    return {
      name: skill.name,
      description: `Skill: ${description.length <= commandDescription ? description : `${description.slice(0, commandDescription - 1)}…`}`,
      input: { hint: 'what the skill should work on' },
    };
  });
}
