import { describe, expect, it } from 'vitest';
import { parseReactReply } from './index.js';

describe('parseReactReply: well-formed replies', () => {
  it('reads a thought, an action and its JSON input', () => {
    expect(
      parseReactReply('Thought: I need to add.\nAction: calculator\nAction Input: {"expression": "1+2"}'),
    ).toEqual({
      type: 'action',
      thought: 'I need to add.',
      tool: 'calculator',
      input: { expression: '1+2' },
      extraActions: 0,
    });
  });

  it('reads a final answer', () => {
    expect(parseReactReply('Thought: done.\nFinal Answer: 42')).toEqual({
      type: 'final',
      thought: 'done.',
      answer: '42',
    });
  });

  it('tolerates extra whitespace, blank lines and any case', () => {
    const step = parseReactReply(
      '\n\n  thought :   I should look it up.  \n\n   ACTION:   Search  \n  action input :  {"q":"x"}  \n\n',
    );
    expect(step).toEqual({
      type: 'action',
      thought: 'I should look it up.',
      tool: 'Search',
      input: { q: 'x' },
      extraActions: 0,
    });
  });

  it('tolerates markdown around keywords and names', () => {
    expect(
      parseReactReply('**Thought:** hm\n**Action:** `calculator`\n**Action Input:** {"a":1}'),
    ).toMatchObject({
      type: 'action',
      thought: 'hm',
      tool: 'calculator',
      input: { a: 1 },
    });
    expect(parseReactReply('**Final Answer**: yes')).toMatchObject({ type: 'final', answer: 'yes' });
  });

  it('takes JSON from code fences, with or without a language, on one or several lines', () => {
    const fenced = 'Action: calc\nAction Input: ```json\n{\n  "expression": "2*3"\n}\n```';
    expect(parseReactReply(fenced)).toMatchObject({ input: { expression: '2*3' } });
    const nextLine = 'Action: calc\nAction Input:\n```\n{"expression": "2*3"}\n```';
    expect(parseReactReply(nextLine)).toMatchObject({ input: { expression: '2*3' } });
    expect(parseReactReply('Action: calc\nAction Input: `{"x": 1}`')).toMatchObject({ input: { x: 1 } });
  });

  it('forgives prose around the JSON object', () => {
    expect(parseReactReply('Action: calc\nAction Input: {"x": 1} (the value)')).toMatchObject({
      input: { x: 1 },
    });
  });

  it('reports a missing Action Input as undefined input', () => {
    expect(parseReactReply('Thought: now.\nAction: clock')).toMatchObject({
      type: 'action',
      tool: 'clock',
      input: undefined,
    });
  });

  it('runs only the first of several actions and counts the others', () => {
    const reply = 'Action: a\nAction Input: {"n": 1}\nAction: b\nAction Input: {"n": 2}\nAction: c';
    expect(parseReactReply(reply)).toMatchObject({ tool: 'a', input: { n: 1 }, extraActions: 2 });
  });

  it('cuts off an Observation the model invented, and everything after it', () => {
    const reply =
      'Thought: add\nAction: calc\nAction Input: {"expression": "1+1"}\nObservation: 3\nThought: so\nFinal Answer: 3';
    expect(parseReactReply(reply)).toEqual({
      type: 'action',
      thought: 'add',
      tool: 'calc',
      input: { expression: '1+1' },
      extraActions: 0,
    });
  });

  it('ignores whatever follows the final answer section', () => {
    const reply =
      'Thought: ok\nFinal Answer: It is 45.\nIt has two lines.\nThought: hmm\nAction: calc\nAction Input: {}';
    expect(parseReactReply(reply)).toEqual({
      type: 'final',
      thought: 'ok',
      answer: 'It is 45.\nIt has two lines.',
    });
  });

  it('takes text before any keyword as the thought and joins several thoughts', () => {
    expect(parseReactReply('Let me see.\nThought: more\nFinal Answer: x')).toMatchObject({
      thought: 'Let me see.\nmore',
    });
  });

  it('does not take words that only start like keywords for keywords', () => {
    expect(parseReactReply('Final Answer: yes\nActually: this is the answer too.')).toMatchObject({
      answer: 'yes\nActually: this is the answer too.',
    });
    expect(parseReactReply('Thoughts: none\nFinal Answer: a')).toMatchObject({ thought: 'Thoughts: none' });
  });
});

describe('parseReactReply: malformed replies say what was wrong', () => {
  it.each([
    ['an empty reply', '   \n', /empty/],
    ['plain prose', 'The answer is 42.', /neither an 'Action:' line nor a 'Final Answer:' line/],
    ['an empty final answer', 'Thought: x\nFinal Answer:   ', /'Final Answer:' was empty/],
    ['an action without a name', 'Action:   \nAction Input: {}', /named no tool/],
    ['an input without an action', 'Action Input: {"a": 1}', /without an 'Action:' line/],
    ['invalid JSON', 'Action: calc\nAction Input: {expression: 1+1', /not valid JSON/],
    ['a JSON value that is not an object', 'Action: calc\nAction Input: "15*3"', /must be one JSON object/],
    ['a JSON array', 'Action: calc\nAction Input: [1, 2]', /must be one JSON object/],
    ['only an invented observation', 'Observation: 4', /neither/],
  ])('%s', (_, reply, problem) => {
    const step = parseReactReply(reply);
    expect(step.type).toBe('malformed');
    expect(step.type === 'malformed' && step.problem).toMatch(problem);
  });
});
