import { propertySettings, soak } from '@agent-core/test-support';
import { Agent, type AgentEvent, defineTool } from '@agent-core/core';
import { mock } from '@agent-core/provider-mock';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { parseReactReply } from './parse-react-reply.js';
import { react } from './react.js';
import { ReactStreamSplitter } from './react-stream-splitter.js';

// The ReAct text protocol under arbitrary text: the parser never throws and always answers one
// well-formed step; the streaming splitter places exactly the thought and answer the parser
// finds, however the reply is cut; and a reply streamed in chunks of any size gives the run the
// same history and streamed text. `pnpm test:soak` runs many more cases.

// The soak run's many cases take minutes, not the default run's seconds. A failure prints its seed
// and path: AGENT_CORE_SEED and AGENT_CORE_PATH replay it.
if (soak) vi.setConfig({ testTimeout: 60 * 60_000 });
const settings = propertySettings;

const word = fc.constantFrom(
  'compute',
  'the',
  'answer',
  'is',
  '45',
  'read_note',
  'ok',
  'Thoughtful',
  'Act',
  'naïve',
  '数字',
  '🙂',
);
const words = fc.array(word, { minLength: 0, maxLength: 8 }).map((parts) => parts.join(' '));
const json = fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value));

/** One line of a reply: mostly protocol keywords, decorated, with text or JSON after them. */
const line = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.constantFrom('', '**', '> ', '# ', '  ', '\t', '_', '\u00a0'),
        fc.constantFrom(
          'Thought',
          'thought',
          'THOUGHT',
          'Action',
          'Action Input',
          'action input',
          'Final Answer',
          'FINAL ANSWER',
          'Observation',
          'Actually',
          'Final',
          'Thoughts',
        ),
        fc.constantFrom(':', ' :', ':**', '**:', '', ' -', ': '),
        fc.oneof(
          words,
          json,
          json.map((value) => `\`\`\`json\n${value}\n\`\`\``),
          json.map((value) => `\`${value}\``),
        ),
      )
      .map(([before, keyword, colon, rest]) => `${before}${keyword}${colon} ${rest}`),
  },
  { weight: 1, arbitrary: words },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
);

/** A reply: lines joined by the line breaks models write, sometimes with whitespace around. */
const reply = fc
  .tuple(
    fc.array(line, { minLength: 0, maxLength: 8 }),
    fc.constantFrom('\n', '\r\n', '\n\n'),
    fc.constantFrom('', ' ', '\n'),
  )
  .map(([lines, separator, around]) => `${around}${lines.join(separator)}${around}`);

/** Any text at all, and replies in the protocol's shape. */
const anyText = fc.oneof(
  reply,
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
);

describe('parseReactReply on arbitrary text', () => {
  it('never throws and answers one well-formed step', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const step = parseReactReply(text);
        expect(typeof step.thought).toBe('string');
        if (step.type === 'action') {
          expect(step.tool).not.toBe('');
          expect(step.tool).not.toContain('\n');
          expect(Number.isInteger(step.extraActions) && step.extraActions >= 0).toBe(true);
          if (step.input !== undefined) {
            expect(typeof step.input).toBe('object');
            expect(Array.isArray(step.input)).toBe(false);
          }
        } else if (step.type === 'final') {
          expect(step.answer).not.toBe('');
        } else {
          expect(step.type).toBe('malformed');
          expect(step.problem.length).toBeGreaterThan(0);
        }
      }),
      settings(2_000, 100_000),
    );
  });
});

describe('the stream splitter on arbitrary text and chunking', () => {
  it('places exactly the thought and answer the parser finds', () => {
    fc.assert(
      fc.property(anyText, fc.array(fc.nat(), { maxLength: 20 }), (text, cuts) => {
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const thought: string[] = [];
        const answer: string[] = [];
        const splitter = new ReactStreamSplitter({
          thought: (delta) => thought.push(delta),
          answer: (delta) => answer.push(delta),
        });
        let start = 0;
        for (const point of [...points, text.length]) {
          splitter.push(text.slice(start, point));
          start = point;
        }
        splitter.end();
        const step = parseReactReply(text);
        expect({ thought: thought.join(''), answer: answer.join('') }).toEqual({
          thought: step.thought,
          answer: step.type === 'final' ? step.answer : '',
        });
      }),
      settings(2_000, 100_000),
    );
  });
});

describe('a run streaming valid replies in chunks of any size', () => {
  const lookUp = defineTool({
    name: 'look_up',
    description: 'Looks a word up',
    parameters: z.object({ word: z.string() }),
    execute: ({ word }) => `${word}: found`,
  });

  async function runWith(replies: string[], chunkSize: number) {
    const provider = mock({ turns: replies.map((text) => ({ text })), chunkSize });
    const agent = new Agent({ provider, model: 'mock', tools: [lookUp], orchestrator: react() });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('Look it up').result();
    const streamed = (type: 'text_delta' | 'thinking_delta') =>
      events.flatMap((event) => (event.type === type ? [event.delta] : [])).join('');
    // Call ids carry the run id: the same history, run to run, up to them.
    const history = JSON.parse(JSON.stringify(result.messages).replace(/react_[0-9a-f-]{8}_/g, 'react_id_'));
    return {
      history,
      text: result.text,
      answer: streamed('text_delta'),
      thoughts: streamed('thinking_delta'),
    };
  }

  it('gives the same history, answer and streamed text as one whole delta', async () => {
    const thought = words.filter((text) => text.trim() !== '');
    const valid = fc
      .tuple(thought, words, thought, thought)
      .map(([first, lookedUp, second, answer]) => [
        `Thought: ${first}\nAction: look_up\nAction Input: {"word": ${JSON.stringify(lookedUp)}}`,
        `Thought: ${second}\nFinal Answer: ${answer}`,
      ]);
    await fc.assert(
      fc.asyncProperty(valid, fc.integer({ min: 1, max: 24 }), async (replies, chunkSize) => {
        const whole = await runWith(replies, 0);
        const chunked = await runWith(replies, chunkSize);
        expect(chunked).toEqual(whole);
        expect(chunked.answer).toBe(chunked.text);
      }),
      settings(50, 2_000),
    );
  });
});
