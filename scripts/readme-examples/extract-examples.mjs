// Finds the TypeScript examples of a README and says what to do with each.
//
// A ```ts (or ```typescript) fenced block is an example. By default it is
// typechecked and run. The last non-blank line before its fence may hold a
// marker that says otherwise:
//   <!-- example:typecheck-only: why -->  typechecked, never run (needs a key, a network, a server)
//   <!-- example:skip: why -->            neither (a reason is required: skipping must stay rare)
//   <!-- example:run -->                  run even though it imports a real provider
// An example that imports a provider that talks to a real API is typecheck-only
// without a marker: it cannot run without a key and a network.

/** Packages whose examples need an API key and the network to run. */
export const networkPackages = ['@agent-core/provider-anthropic', '@agent-core/provider-openai'];

const fencePattern = /^(\s*)```\s*(ts|typescript)\s*$/;
const markerPattern = /^<!--\s*example:(typecheck-only|skip|run)\s*(?::\s*(.*?))?\s*-->$/;

/**
 * The examples of one markdown document, in order.
 * @param {string} markdown
 * @returns {{ index: number, line: number, code: string, mode: 'run' | 'typecheck' | 'skip', reason: string }[]}
 *   `line` is the 1-based line of the first line of code.
 */
export function extractExamples(markdown) {
  const lines = markdown.split('\n');
  const examples = [];
  for (let position = 0; position < lines.length; position++) {
    const fence = fencePattern.exec(lines[position] ?? '');
    if (fence === null) continue;
    const indent = fence[1] ?? '';
    const body = [];
    let end = position + 1;
    while (end < lines.length && (lines[end] ?? '').trim() !== '```') {
      const line = lines[end] ?? '';
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line);
      end++;
    }
    if (end >= lines.length) throw new Error(`line ${position + 1}: a \`\`\`ts block is never closed`);
    const marker = markerBefore(lines, position);
    const code = `${body.join('\n')}\n`;
    examples.push({
      index: examples.length + 1,
      line: position + 2,
      code,
      ...modeOf(marker, code, position),
    });
    position = end;
  }
  return examples;
}

function markerBefore(lines, fenceIndex) {
  for (let index = fenceIndex - 1; index >= 0; index--) {
    const text = (lines[index] ?? '').trim();
    if (text === '') continue;
    return markerPattern.exec(text);
  }
  return null;
}

function modeOf(marker, code, fenceIndex) {
  const kind = marker?.[1];
  const reason = marker?.[2] ?? '';
  if (kind === 'skip') {
    if (reason === '') {
      throw new Error(
        `line ${fenceIndex + 1}: <!-- example:skip --> needs a reason: <!-- example:skip: why -->`,
      );
    }
    return { mode: 'skip', reason };
  }
  if (kind === 'typecheck-only') return { mode: 'typecheck', reason: reason || 'marked typecheck-only' };
  if (kind === 'run') return { mode: 'run', reason: '' };
  const network = networkPackages.find((name) => importsPackage(code, name));
  if (network !== undefined)
    return { mode: 'typecheck', reason: `imports ${network}, which needs an API key` };
  return { mode: 'run', reason: '' };
}

/** The bare module specifiers an example imports (`import ... from 'x'`, `import 'x'`, `import('x')`). */
export function importedSpecifiers(code) {
  const specifiers = new Set();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g)) {
    const specifier = match[1] ?? '';
    if (!specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('node:')) {
      specifiers.add(specifier);
    }
  }
  return [...specifiers];
}

/** The package a bare specifier names: `zod/v4` is `zod`, `@scope/name/sub` is `@scope/name`. */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

function importsPackage(code, name) {
  return importedSpecifiers(code).some((specifier) => packageOf(specifier) === name);
}
