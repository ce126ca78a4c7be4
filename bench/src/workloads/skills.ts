import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { estimateTextTokens, renderSkillsSection, type Skill } from '@agent-core/core';
import { discoverSkills, parseFrontmatterYaml, parseSkillFile } from '@agent-core/skills';
import { parse } from 'yaml';
import { skillBody, skillDescription, skillFile, skillName, writeSkillProject } from './skill-folders.js';

const run = promisify(execFile);
const dist = fileURLToPath(new URL('..', import.meta.url));

/** Workload 11: what skills cost at start-up, and what progressive disclosure saves in the prompt. */
export interface SkillsResult {
  skills: number;
  samples: number;
  /** Importing @agent-core/skills (core with it) in a fresh process, median ms. */
  importMs: number;
  /** Importing @agent-core/core alone in a fresh process, median ms: what the skills package adds is the difference. */
  coreImportMs: number;
  /** Discovering and validating every skill in that fresh process (first call), median ms. */
  coldDiscoverMs: number;
  /** The same in a warm process, median ms. */
  warmDiscoverMs: number;
  parsers: { label: string; perFileUs: number; importMs: number | undefined }[];
  prompts: PromptTokens[];
}

/** The tokens (core's estimate, characters / 4) of the skills section against those of every body. */
export interface PromptTokens {
  label: string;
  skills: number;
  sectionTokens: number;
  bodiesTokens: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Runs `work` over and over for at least `ms`, after a warm-up, and gives the time of one call in µs. */
function perCallUs(work: () => void, calls: number, ms = 300): number {
  for (let index = 0; index < 3; index++) work();
  let rounds = 0;
  const started = performance.now();
  while (performance.now() - started < ms) {
    work();
    rounds++;
  }
  return ((performance.now() - started) * 1000) / (rounds * calls);
}

/** Keeps each result reachable, so the JIT cannot drop a call whose value goes unused. */
let sink: unknown;
function each<Item>(items: readonly Item[], work: (item: Item) => unknown): () => void {
  return () => {
    for (const item of items) sink = work(item);
  };
}

function promptTokens(label: string, skills: Skill[], bodies: string[]): PromptTokens {
  const section = renderSkillsSection(skills, new Set(['load_skill', 'read_skill_file']));
  return {
    label,
    skills: skills.length,
    sectionTokens: estimateTextTokens(section),
    bodiesTokens: bodies.reduce((sum, body) => sum + estimateTextTokens(body), 0),
  };
}

/** Measures workload 11: 1,000 skills discovered cold and warm, the YAML parsers, and the prompt tokens of 100 skills. */
export async function measureSkills(
  options: { skills?: number; samples?: number; sharedSkills?: string } = {},
): Promise<SkillsResult> {
  const count = options.skills ?? 1000;
  const samples = options.samples ?? 7;
  const project = mkdtempSync(join(tmpdir(), 'agent-core-bench-skills-'));
  try {
    writeSkillProject(project, count);
    const cold: { importMs: number; discoverMs: number }[] = [];
    const yamlImports: number[] = [];
    const coreImports: number[] = [];
    const importTime = async (specifier: string) =>
      Number((await run(process.execPath, [join(dist, 'import-probe.js'), specifier])).stdout.trim());
    // Round robin, so a slow moment of the machine does not land on one row only.
    for (let sample = 0; sample < samples; sample++) {
      const { stdout } = await run(process.execPath, [join(dist, 'skills-child.js'), project]);
      cold.push(JSON.parse(stdout) as { importMs: number; discoverMs: number });
      coreImports.push(await importTime('@agent-core/core'));
      yamlImports.push(await importTime('yaml'));
    }
    const warm: number[] = [];
    for (let sample = 0; sample < samples + 2; sample++) {
      const started = performance.now();
      const found = await discoverSkills({ project, user: false });
      warm.push(performance.now() - started);
      if (found.skills.length !== count) throw new Error(`found ${found.skills.length} of ${count} skills`);
    }

    const files = Array.from({ length: count }, (_, index) => skillFile(index, 60));
    const frontmatters = files.map((file) => file.slice(4, file.indexOf('\n---\n', 4)));
    const parsers = [
      {
        label: 'our frontmatter parser (parseFrontmatterYaml)',
        perFileUs: perCallUs(
          each(frontmatters, (text) => parseFrontmatterYaml(text)),
          count,
        ),
        importMs: undefined,
      },
      {
        label: "the yaml package (parse, schema 'failsafe')",
        perFileUs: perCallUs(
          each(frontmatters, (text) => parse(text, { schema: 'failsafe' })),
          count,
        ),
        importMs: median(yamlImports),
      },
      {
        label: 'whole SKILL.md checked (parseSkillFile)',
        perFileUs: perCallUs(
          each(files, (file) => parseSkillFile(file, { file: 'SKILL.md' })),
          count,
        ),
        importMs: undefined,
      },
    ];

    const hundred = Array.from({ length: 100 }, (_, index) => ({
      name: skillName(index),
      description: skillDescription(index),
      body: skillBody(index, 60),
      location: `/home/user/project/.agents/skills/${skillName(index)}/SKILL.md`,
    }));
    const prompts = [
      promptTokens(
        '100 generated skills (60-line bodies)',
        hundred,
        hundred.map((skill) => skill.body),
      ),
    ];
    if (options.sharedSkills !== undefined && existsSync(options.sharedSkills)) {
      const real = await discoverSkills({ folders: [options.sharedSkills], user: false });
      const bodies = await Promise.all(real.skills.map((skill) => skill.body()));
      prompts.push(
        promptTokens(
          `the ${real.skills.length} real skills of ../shared/fixtures/skills`,
          real.skills,
          bodies,
        ),
      );
    }
    if (sink === undefined) throw new Error('no parse ran');
    return {
      skills: count,
      samples,
      importMs: median(cold.map((sample) => sample.importMs)),
      coreImportMs: median(coreImports),
      coldDiscoverMs: median(cold.map((sample) => sample.discoverMs)),
      warmDiscoverMs: median(warm.slice(2)),
      parsers,
      prompts,
    };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
