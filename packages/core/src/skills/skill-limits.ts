/** The lengths the Agent Skills specification sets, in characters. */
export const skillLimits = {
  nameLength: 64,
  descriptionLength: 1024,
  compatibilityLength: 500,
} as const;

const nameCharacters = /^[\p{L}\p{N}-]+$/u;

/**
 * Why `name` is not a valid skill name, or undefined when it is: 1 to 64
 * lowercase letters, digits and hyphens, no hyphen first, last or doubled
 * (the Agent Skills rule; letters of any script, compared after NFKC).
 */
export function skillNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name.trim() === '') return 'the name must be a non-empty string';
  const normal = name.normalize('NFKC');
  const length = [...normal].length;
  if (length > skillLimits.nameLength)
    return `the name '${shortened(normal)}' is ${length} characters long; use at most ${skillLimits.nameLength}`;
  if (!nameCharacters.test(normal))
    return `the name '${normal}' may hold only lowercase letters, digits and hyphens`;
  if (normal !== normal.toLowerCase())
    return `the name '${normal}' must be lowercase ('${normal.toLowerCase()}')`;
  if (normal.startsWith('-') || normal.endsWith('-'))
    return `the name '${normal}' may not start or end with a hyphen`;
  if (normal.includes('--')) return `the name '${normal}' may not hold two hyphens in a row`;
  return undefined;
}

/** A text cut to its first 40 characters, for messages about a value too long to quote whole. */
function shortened(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 40)}…`;
}
