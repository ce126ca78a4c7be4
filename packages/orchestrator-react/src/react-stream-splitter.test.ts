import { describe, expect, it } from 'vitest';
import { parseReactReply } from './parse-react-reply.js';
import { ReactStreamSplitter } from './react-stream-splitter.js';

function split(chunks: readonly string[]) {
  const thought: string[] = [];
  const answer: string[] = [];
  const splitter = new ReactStreamSplitter({
    thought: (delta) => thought.push(delta),
    answer: (delta) => answer.push(delta),
  });
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { thought: thought.join(''), answer: answer.join(''), answerDeltas: answer };
}

function chunked(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let index = 0; index < text.length; index += size) chunks.push(text.slice(index, index + size));
  return chunks;
}

const replies = [
  'Thought: I need to add.\nAction: calculator\nAction Input: {"expression": "1+2"}',
  'Thought: done.\nFinal Answer: 15*3 = 45 and 10+5 = 15',
  '  thought :  two\n  lines  \n\nFINAL ANSWER:   first line\n\n  second line  \n',
  'Preamble.\nThought: more\nFinal Answer: It is 45.\nActually: still the answer.\nThought: hidden\nAction: x',
  '**Thought:** bold\n**Final Answer:** *emphasis* kept',
  'Thought: go\nAction: calc\nAction Input: {}\nObservation: 3\nFinal Answer: invented',
  'Final Answer: Thoughtful answer\nAct naturally',
];

describe('ReactStreamSplitter', () => {
  it.each(replies)('streams what the parser finds, however the reply is cut: %j', (reply) => {
    const step = parseReactReply(reply);
    const expected = {
      thought: step.thought,
      answer: step.type === 'final' ? step.answer : '',
    };
    for (let size = 1; size <= reply.length; size++) {
      const { thought, answer } = split(chunked(reply, size));
      expect({ thought, answer }, `chunks of ${size}`).toEqual(expected);
    }
    for (let cut = 0; cut <= reply.length; cut++) {
      const { thought, answer } = split([reply.slice(0, cut), reply.slice(cut)]);
      expect({ thought, answer }, `cut at ${cut}`).toEqual(expected);
    }
  });

  it('streams the answer as it arrives, holding back only what could still be a keyword', () => {
    const answer: string[] = [];
    const splitter = new ReactStreamSplitter({ thought: () => {}, answer: (delta) => answer.push(delta) });
    splitter.push('Thought: ok\nFinal Answer: The');
    expect(answer).toEqual(['The']);
    splitter.push(' result\nAc');
    expect(answer.join('')).toBe('The result');
    splitter.push('tually yes');
    expect(answer.join('')).toBe('The result\nActually yes');
    splitter.push('\nObservation: made up');
    splitter.end();
    expect(answer.join('')).toBe('The result\nActually yes');
  });

  it('sends nothing for an action and its input', () => {
    expect(split(['Action: calc\nAction Input: {"a": "Final Answer: no"}'])).toMatchObject({
      thought: '',
      answer: '',
    });
  });
});

describe('ReactStreamSplitter on generated replies', () => {
  const lines = [
    'Thought: first',
    'thought:   second  ',
    '**Thought:**',
    '  more reasoning  ',
    '',
    '   ',
    'Action: calc',
    'Action Input: {"a": 1}',
    '> Final Answer: 45',
    'FINAL ANSWER:\tforty five ',
    'Final Answer:',
    'Actually: text',
    'Observation: invented',
    'plain\u00a0text\u3000',
    'Final Answer: many words here ',
    ' spaced  words\t',
    '\t# Thought : spaced',
  ];

  /** A seeded generator, so a failing reply can be replayed. */
  function generator(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
  }

  it('streams what the parser finds whether fed one character at a time, whole, or in random pieces', () => {
    const random = generator(11);
    for (let sample = 0; sample < 400; sample++) {
      const count = 1 + Math.floor(random() * 6);
      const parts: string[] = [];
      for (let index = 0; index < count; index++)
        parts.push(lines[Math.floor(random() * lines.length)] as string);
      const reply = parts.join(random() < 0.5 ? '\n' : '\n\n');
      const step = parseReactReply(reply);
      const expected = { thought: step.thought, answer: step.type === 'final' ? step.answer : '' };
      const whole = split([reply]);
      expect({ thought: whole.thought, answer: whole.answer }, JSON.stringify(reply)).toEqual(expected);
      const single = split([...reply]);
      expect({ thought: single.thought, answer: single.answer }, JSON.stringify(reply)).toEqual(expected);
      const pieces: string[] = [];
      for (let index = 0; index < reply.length; ) {
        const size = 1 + Math.floor(random() * 9);
        pieces.push(reply.slice(index, index + size));
        index += size;
      }
      // Words with the whitespace after them, as many models stream: held whole, then sent whole.
      const words = split(reply.split(/(?<=\s)/));
      expect({ thought: words.thought, answer: words.answer }, JSON.stringify(reply)).toEqual(expected);
      // Words with the whitespace before them, as byte-pair tokenizers cut text.
      const tokens = split(reply.split(/(?=\s)/));
      expect({ thought: tokens.thought, answer: tokens.answer }, JSON.stringify(reply)).toEqual(expected);
      const chunked = split(pieces);
      expect({ thought: chunked.thought, answer: chunked.answer }, JSON.stringify(pieces)).toEqual(expected);
    }
  });

  it('passes a delta of plain answer text on as it is, once its line is known', () => {
    const answer: string[] = [];
    const splitter = new ReactStreamSplitter({ thought: () => {}, answer: (delta) => answer.push(delta) });
    splitter.push('Final Answer: The');
    const delta = ' answer is';
    splitter.push(delta);
    splitter.push('\n');
    splitter.push('forty-five.');
    splitter.end();
    expect(answer).toEqual(['The', ' answer is', '\nforty-five.']);
    expect(answer[1]).toBe(delta);
  });

  it('holds a delta that ends in whitespace until more text comes, then passes it on whole', () => {
    const answer: string[] = [];
    const splitter = new ReactStreamSplitter({ thought: () => {}, answer: (delta) => answer.push(delta) });
    splitter.push('Final Answer: The');
    expect(answer).toEqual(['The']);
    const held = ' answer ';
    splitter.push(held);
    expect(answer).toEqual(['The']);
    splitter.push('is ');
    expect(answer).toEqual(['The', ' answer ']);
    expect(answer[1]).toBe(held);
    splitter.push('45.  ');
    expect(answer).toEqual(['The', ' answer ', 'is ']);
    // The end of the reply places the held text without its whitespace, as the parser trims it.
    splitter.end();
    expect(answer).toEqual(['The', ' answer ', 'is ', '45.']);
    expect(splitter.answer).toBe('The answer is 45.');
  });
});
