// `${name}` is a variable; `$${name}` stands for the literal text `${name}`.
const variablePattern = /\$?\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The variable names a template uses, in order of first use. */
export function templateVariables(template: string): string[] {
  const names = new Set<string>();
  for (const match of template.matchAll(variablePattern)) {
    if (!match[0].startsWith('$$')) names.add(match[1] as string);
  }
  return [...names];
}

/**
 * Replaces each `${name}` in `template` with `values[name]`: strings as they
 * are, anything else as JSON. Callers check first that every variable has a
 * value (`templateVariables`), so a missing one is a bug and throws.
 */
export function substituteTemplate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(variablePattern, (whole, name: string) => {
    if (whole.startsWith('$$')) return whole.slice(1);
    if (!Object.hasOwn(values, name)) throw new Error(`Template variable '${name}' has no value.`);
    const value = values[name];
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  });
}
