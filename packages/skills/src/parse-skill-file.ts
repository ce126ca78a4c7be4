import { skillLimits, skillNameProblem } from '@agent-core/core';
import { parseFrontmatterYaml, type YamlMap, YamlSubsetError, type YamlValue } from './frontmatter-yaml.js';
import type { SkillProblem } from './skill-problem.js';

/** What a valid `SKILL.md` says: its frontmatter's fields and its body. */
export interface SkillFileContent {
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  /** `allowed-tools`, split into entries (a space-delimited string or a list). */
  allowedTools?: string[];
  /** The Markdown after the frontmatter. */
  body: string;
}

/** What parsing a `SKILL.md` gives: its content when it is valid, and every problem found (warnings too). */
export interface ParsedSkillFile {
  content: SkillFileContent | undefined;
  problems: SkillProblem[];
}

const knownFields = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools'];
// The standard recommends a body under 500 lines; past it, validation warns.
const recommendedBodyLines = 500;
const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses and validates one `SKILL.md` to the Agent Skills specification:
 * UTF-8 (a BOM is dropped, CRLF read as LF), frontmatter between `---`
 * lines in the YAML people write (see `parseFrontmatterYaml`), `name` (the
 * naming rule, and equal to `folderName` when given), `description` (1 to
 * 1,024 characters), optional `license`, `compatibility` (at most 500
 * characters), `metadata` (strings by key) and `allowed-tools` (a string or a
 * list of strings). Unknown fields and an empty body are warnings. Never throws.
 */
export function parseSkillFile(
  source: Uint8Array | string,
  options: { file: string; folderName?: string },
): ParsedSkillFile {
  const { file } = options;
  const problems: SkillProblem[] = [];
  const error = (message: string, line?: number) =>
    problems.push(
      line === undefined ? { file, severity: 'error', message } : { file, line, severity: 'error', message },
    );
  const warn = (message: string, line?: number) =>
    problems.push(
      line === undefined
        ? { file, severity: 'warning', message }
        : { file, line, severity: 'warning', message },
    );

  const text = decode(source);
  if (text === undefined) {
    error(utf16(source) ? 'is UTF-16 text; save it as UTF-8' : 'is not UTF-8 text; save it as UTF-8');
    return { content: undefined, problems };
  }
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n');
  if (lines[0]?.trimEnd() !== '---') {
    error(
      "has no frontmatter: a SKILL.md starts with a line '---', then its name and description in YAML, then '---'",
      1,
    );
    return { content: undefined, problems };
  }
  const close = lines.findIndex(
    (line, index) => index > 0 && (line.trimEnd() === '---' || line.trimEnd() === '...'),
  );
  if (close === -1) {
    error("has frontmatter that is never closed: end it with a line '---' before the instructions", 1);
    return { content: undefined, problems };
  }
  let fields: YamlMap;
  let keyLines: ReadonlyMap<string, number>;
  try {
    const parsed = parseFrontmatterYaml(lines.slice(1, close).join('\n'), 2);
    fields = parsed.value;
    keyLines = parsed.lines;
  } catch (caught) {
    if (!(caught instanceof YamlSubsetError)) throw caught;
    error(`has frontmatter that is not valid YAML here: ${caught.message}`, caught.line);
    return { content: undefined, problems };
  }
  const lineOf = (key: string) => keyLines.get(key) ?? 1;

  const name = fields.name;
  if (name === undefined)
    error("has no 'name' in its frontmatter: add the skill's name (its folder's name)", 1);
  else if (typeof name !== 'string')
    error(
      name === null ? "has an empty 'name'" : `has a 'name' that is ${kind(name)}, not text`,
      lineOf('name'),
    );
  else {
    const problem = skillNameProblem(name);
    if (problem !== undefined) error(`has an invalid name: ${problem}`, lineOf('name'));
    else if (
      options.folderName !== undefined &&
      options.folderName.normalize('NFKC') !== name.normalize('NFKC')
    )
      error(
        `is named '${name}' but its folder is '${options.folderName}': the name must equal the folder's name (rename one)`,
        lineOf('name'),
      );
  }

  const description = fields.description;
  if (description === undefined)
    error("has no 'description' in its frontmatter: say what the skill does and when to use it", 1);
  else if (description !== null && typeof description !== 'string')
    error(`has a 'description' that is ${kind(description)}, not text`, lineOf('description'));
  else if (description === null || description.trim() === '')
    error("has an empty 'description': say what the skill does and when to use it", lineOf('description'));
  else if ([...description].length > skillLimits.descriptionLength)
    error(
      `has a description of ${[...description].length} characters; the limit is ${skillLimits.descriptionLength}`,
      lineOf('description'),
    );

  const license = optionalText(fields.license, 'license', lineOf, error);
  const compatibility = optionalText(fields.compatibility, 'compatibility', lineOf, error);
  if (compatibility !== undefined && [...compatibility].length > skillLimits.compatibilityLength)
    error(
      `has a compatibility of ${[...compatibility].length} characters; the limit is ${skillLimits.compatibilityLength}`,
      lineOf('compatibility'),
    );

  let metadata: Record<string, string> | undefined;
  const rawMetadata = fields.metadata;
  if (rawMetadata !== undefined && rawMetadata !== null) {
    if (typeof rawMetadata !== 'object' || Array.isArray(rawMetadata))
      error(
        `has 'metadata' that is ${kind(rawMetadata)}; it must be a mapping of keys to text`,
        lineOf('metadata'),
      );
    else {
      metadata = {};
      for (const [key, value] of Object.entries(rawMetadata)) {
        if (typeof value === 'string')
          Object.defineProperty(metadata, key, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else
          error(
            `has metadata '${key}' that is ${kind(value)}; metadata values must be text`,
            lineOf(`metadata.${key}`),
          );
      }
    }
  }

  let allowedTools: string[] | undefined;
  const rawTools = fields['allowed-tools'];
  if (typeof rawTools === 'string') allowedTools = rawTools.split(/\s+/).filter((entry) => entry !== '');
  else if (Array.isArray(rawTools)) {
    if (rawTools.every((entry) => typeof entry === 'string'))
      allowedTools = rawTools.map((entry) => entry.trim());
    else error("has an 'allowed-tools' list with items that are not text", lineOf('allowed-tools'));
  } else if (rawTools !== undefined && rawTools !== null)
    error(
      `has 'allowed-tools' that is ${kind(rawTools)}; give a space-separated string or a list of strings`,
      lineOf('allowed-tools'),
    );

  for (const key of Object.keys(fields)) {
    if (!knownFields.includes(key))
      warn(
        `has the field '${key}', which the Agent Skills standard does not define (it is ignored; put your own values under 'metadata')`,
        lineOf(key),
      );
  }

  const body = lines
    .slice(close + 1)
    .join('\n')
    .trim();
  if (body === '') warn('has no instructions after its frontmatter', close + 2);
  const bodyLines = body === '' ? 0 : body.split('\n').length;
  if (bodyLines > recommendedBodyLines)
    warn(
      `has ${bodyLines} lines of instructions; the standard recommends under ${recommendedBodyLines}: move details into references/ files the instructions point to`,
      close + 2,
    );

  if (problems.some((problem) => problem.severity === 'error')) return { content: undefined, problems };
  const content: SkillFileContent = {
    name: name as string,
    description: (description as string).trim(),
    body,
  };
  if (license !== undefined) content.license = license;
  if (compatibility !== undefined) content.compatibility = compatibility;
  if (metadata !== undefined) content.metadata = metadata;
  if (allowedTools !== undefined) content.allowedTools = allowedTools;
  return { content, problems };
}

function decode(source: Uint8Array | string): string | undefined {
  if (typeof source === 'string') return source;
  try {
    return decoder.decode(source);
  } catch {
    return undefined;
  }
}

function utf16(source: Uint8Array | string): boolean {
  return (
    typeof source !== 'string' &&
    ((source[0] === 0xff && source[1] === 0xfe) || (source[0] === 0xfe && source[1] === 0xff))
  );
}

function kind(value: YamlValue): string {
  if (value === null) return 'empty';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a mapping' : 'text';
}

function optionalText(
  value: YamlValue | undefined,
  field: string,
  lineOf: (key: string) => number,
  error: (message: string, line?: number) => void,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  error(`has a '${field}' that is ${kind(value)}, not text`, lineOf(field));
  return undefined;
}
