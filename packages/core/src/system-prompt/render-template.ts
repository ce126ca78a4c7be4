import { TemplateError } from '../errors/template-error.js';

const placeholder = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}|\$\{\s*([A-Za-z_][\w.-]*)\s*\}/g;

/**
 * Replaces `{{name}}` and `${name}` in `text` with `variables[name]`. An
 * unknown name throws `TemplateError` naming it and `section`.
 */
export function renderTemplate(
  text: string,
  variables: Readonly<Record<string, string>>,
  section: string,
): string {
  if (!text.includes('{{') && !text.includes('${')) return text;
  return text.replace(placeholder, (_match, braces: string | undefined, dollar: string | undefined) => {
    const name = (braces ?? dollar) as string;
    const value = Object.hasOwn(variables, name) ? variables[name] : undefined;
    if (value === undefined) throw new TemplateError(name, section, Object.keys(variables));
    return value;
  });
}
