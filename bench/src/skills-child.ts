// Workload 11's probe, in a fresh process per sample: imports @agent-core/skills
// and discovers and validates the skills of the project it is given, as the CLI
// and an ACP session do at start-up. Prints the import and discovery times in ms.
const project = process.argv[2] ?? '.';
const started = performance.now();
const { discoverSkills } = await import('@agent-core/skills');
const imported = performance.now();
const found = await discoverSkills({ project, user: false });
const discovered = performance.now();
if (found.problems.length > 0) throw new Error(`unexpected problems: ${JSON.stringify(found.problems[0])}`);
process.stdout.write(
  `${JSON.stringify({ importMs: imported - started, discoverMs: discovered - imported, skills: found.skills.length })}\n`,
);
