import type { SkillsResult } from './workloads/skills.js';

function number(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The tables of workload 11: start-up cost of skills, the frontmatter parsers, and prompt tokens with and without progressive disclosure. */
export function renderSkills(result: SkillsResult): string {
  const rows = (cells: string[][]) => cells.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
  const startUp = [
    '| what | median |',
    '| --- | ---: |',
    rows([
      ['import `@agent-core/core` alone, fresh process', `${number(result.coreImportMs, 1)} ms`],
      ['import `@agent-core/skills` (and core), fresh process', `${number(result.importMs, 1)} ms`],
      [
        `discover and validate ${number(result.skills, 0)} skills, fresh process (first call)`,
        `${number(result.coldDiscoverMs, 0)} ms`,
      ],
      [`the same, warm process`, `${number(result.warmDiscoverMs, 0)} ms`],
      ['per skill, warm', `${number((result.warmDiscoverMs * 1000) / result.skills, 0)} µs`],
    ]),
  ].join('\n');
  const parsers = [
    '| frontmatter parser | per file | import, fresh process |',
    '| --- | ---: | ---: |',
    rows(
      result.parsers.map((parser) => [
        parser.label,
        `${number(parser.perFileUs, 1)} µs`,
        parser.importMs === undefined ? '(part of the package)' : `${number(parser.importMs, 1)} ms`,
      ]),
    ),
  ].join('\n');
  const prompts = [
    '| skills | tokens up front (skills section) | tokens of every body | bodies ÷ section |',
    '| --- | ---: | ---: | ---: |',
    rows(
      result.prompts.map((prompt) => [
        prompt.label,
        number(prompt.sectionTokens, 0),
        number(prompt.bodiesTokens, 0),
        `${number(prompt.bodiesTokens / prompt.sectionTokens, 1)}×`,
      ]),
    ),
  ].join('\n');
  return `### Skills (workload 11)\n\n${startUp}\n\n${parsers}\n\n${prompts}`;
}
