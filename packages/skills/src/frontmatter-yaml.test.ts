import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseFrontmatterYaml, type YamlValue, YamlSubsetError } from './frontmatter-yaml.js';

/** The `yaml` package (failsafe schema: every scalar a string) as the oracle; it reads an empty value as ''. */
function oracle(text: string): unknown {
  return parse(text, { schema: 'failsafe' }) ?? {};
}

function withEmptyStrings(value: YamlValue): unknown {
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(withEmptyStrings);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withEmptyStrings(item)]));
}

function ours(text: string): unknown {
  return withEmptyStrings(parseFrontmatterYaml(text).value);
}

const written = [
  'name: pdf-processing\ndescription: Extracts text from PDFs. Use when working with PDF files.\n',
  'name: "quoted"\ndescription: \'it\'\'s single\'\nlicense: "Tab\\there, \\u00e9 and \\"quotes\\""\n',
  'description: >\n  Folded over\n  two lines.\n\n  A new paragraph.\nname: x\n',
  'description: >-\n  Folded, stripped.\n    More indented\n  back.\n',
  'description: |\n  Literal\n    kept indented\n  lines.\n\n\nname: y\n',
  'description: |+\n  kept\n\n\nname: z\n',
  'description: |2-\n    two extra spaces\n  \n',
  'description: A plain value\n  continued on the next line\n\n  and after a blank line.\nname: a\n',
  'metadata:\n  author: example-org\n  version: 1.0\n  "quoted key": yes\n',
  'allowed-tools: Bash(git:*) Read\n',
  'allowed-tools:\n  - Bash(git:*)\n  - "Read"\n  - Write\n',
  'allowed-tools:\n- Read\n- Grep\nname: same-indent-list\n',
  'allowed-tools: [Read, "Grep", \'Glob\']\n',
  'allowed-tools: [\n  Read,\n  Grep,\n]\n',
  '# a comment\nname: c # trailing comment\n\n# another\ndescription: "with # inside" # and after\n',
  'name:\ndescription: ""\n',
  'description: "line one\n  folded\n\n  with a blank"\n',
  'description: "escaped \\\n  break"\n',
  'url: http://example.com/a:b\nratio: 1:2\n',
  'description: >\n  ends\n\n',
  'empty-list: []\nname: n\n',
  '__proto__: safe\nconstructor: too\n',
];

describe('frontmatter YAML', () => {
  it.each(written)('reads %j as the yaml package does', (text) => {
    expect(ours(text)).toEqual(oracle(text));
  });

  it('gives the line of each key, nested ones by their path', () => {
    const { lines } = parseFrontmatterYaml('name: a\n\nmetadata:\n  version: "1"\ndescription: d\n', 2);
    expect(Object.fromEntries(lines)).toEqual({
      name: 2,
      metadata: 4,
      'metadata.version': 5,
      description: 6,
    });
  });

  it('keeps __proto__ as a plain key', () => {
    const { value } = parseFrontmatterYaml('__proto__: x\n');
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toBe('x');
  });

  it.each([
    ['a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n', 1, /anchors \(&name\) are not supported/],
    ['name: x\nb: *a\n', 2, /aliases \(\*name\) are not supported/],
    ['name: !!binary abc\n', 1, /tags \(!name\) are not supported/],
    ['metadata: { a: b }\n', 1, /flow mappings/],
    ['? complex\n: key\n', 1, /complex keys/],
    ['name: a\nname: b\n', 2, /the key 'name' appears twice/],
    ['metadata:\n\tversion: 1\n', 2, /a tab is used for indentation/],
    ['description: Use when: always\n', 1, /must be put in quotes/],
    ['name: "never closed\n', 1, /never closed/],
    ['description: "bad \\q escape"\n', 1, /not an escape/],
    ['  name: indented\n', 1, /first key is indented/],
    ['name: a\n  extra: b\n', 2, /must be put in quotes|indented more/],
    ['list:\n  - [a, [b]]\n', 2, /inside \[ \.\.\. \] are not supported/],
    ['list:\n  - a: b\n', 2, /mappings inside lists/],
    ['just text\n', 1, /expected "key: value"/],
    [
      `${Array.from({ length: 12 }, (_, depth) => `${' '.repeat(depth)}a:\n`).join('')}${' '.repeat(12)}b: c\n`,
      10,
      /nested more than 8 levels/,
    ],
  ])('refuses %j at line %i', (text, line, message) => {
    let error: unknown;
    try {
      parseFrontmatterYaml(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(YamlSubsetError);
    expect((error as YamlSubsetError).message).toMatch(message);
    expect((error as YamlSubsetError).line).toBe(line);
  });

  it('agrees with the yaml package on generated frontmatter', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9()./-]{0,10}$/);
    const plain = fc.array(word, { minLength: 1, maxLength: 5 }).map((words) => words.join(' '));
    const text = fc.string({ unit: 'grapheme', maxLength: 30 });
    const doubleQuoted = text.map((value) => JSON.stringify(value));
    const singleQuoted = text
      .filter((value) => !/[\n\r]/.test(value) && !/^\s|\s$/.test(value))
      .map((value) => `'${value.replaceAll("'", "''")}'`);
    const blockLines = fc.array(
      fc.oneof(
        plain,
        fc.constant(''),
        plain.map((line) => `  ${line}`),
      ),
      {
        minLength: 1,
        maxLength: 5,
      },
    );
    const block = fc
      .tuple(fc.constantFrom('|', '>'), fc.constantFrom('', '-', '+'), blockLines)
      .filter(([, , lines]) => lines.some((line) => line !== '' && !line.startsWith(' ')))
      .filter(([, , lines]) => !(lines.find((line) => line !== '') ?? '').startsWith(' '))
      .map(
        ([style, chomp, lines]) =>
          `${style}${chomp}\n${lines.map((line) => (line === '' ? '' : `  ${line}`)).join('\n')}`,
      );
    const list = fc.array(fc.oneof(plain, doubleQuoted), { minLength: 1, maxLength: 4 });
    const blockList = list.map((items) => `\n${items.map((item) => `  - ${item}`).join('\n')}`);
    const flowList = fc.array(word, { maxLength: 4 }).map((items) => `[${items.join(', ')}]`);
    const nested = fc
      .dictionary(
        word.filter((key) => !key.includes(':')),
        fc.oneof(plain, doubleQuoted),
        { minKeys: 1, maxKeys: 3 },
      )
      .map(
        (map) =>
          `\n${Object.entries(map)
            .map(([key, value]) => `  ${key}: ${value}`)
            .join('\n')}`,
      );
    const value = fc.oneof(plain, doubleQuoted, singleQuoted, block, blockList, flowList, nested);
    const document = fc
      .dictionary(
        word.filter((key) => !key.includes(':')),
        value,
        { minKeys: 1, maxKeys: 5 },
      )
      .map(
        (map) =>
          Object.entries(map)
            .map(([key, item]) => `${key}:${item.startsWith('\n') ? '' : ' '}${item}`)
            .join('\n') + '\n',
      );
    fc.assert(
      fc.property(document, (frontmatter) => {
        expect(ours(frontmatter)).toEqual(oracle(frontmatter));
      }),
      { numRuns: process.env.AGENT_CORE_SOAK === '1' ? 20_000 : 300 },
    );
  }, 120_000);
});
