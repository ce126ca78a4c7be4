/** Environment variable names whose values are credentials: API keys, tokens, secrets, passwords. */
const secretName = /(api[_-]?key|token|secret|passw(or)?d|credential|auth)/i;

/**
 * The values of the environment's credential variables (`OPENAI_API_KEY`,
 * `GITHUB_TOKEN`, ...) of 8 characters or more, so a recording removes them
 * wherever they appear, whatever their shape. Empty outside Node-like runtimes.
 */
export function environmentSecrets(): string[] {
  const environment = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (environment === undefined) return [];
  const values: string[] = [];
  for (const [name, value] of Object.entries(environment)) {
    if (value !== undefined && value.length >= 8 && secretName.test(name)) values.push(value);
  }
  return values;
}
