/**
 * Something wrong with a skill, found while discovering or validating it:
 * the file (or folder) it is about, the line when known, and what is wrong
 * and what to do. An `error` leaves the skill out; a `warning` keeps it.
 */
export interface SkillProblem {
  file: string;
  line?: number;
  severity: 'error' | 'warning';
  message: string;
}

/** `file:line: message`, the form editors and terminals link to. */
export function formatSkillProblem(problem: SkillProblem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  return `${where}: ${problem.severity === 'warning' ? 'warning: ' : ''}${problem.message}`;
}
