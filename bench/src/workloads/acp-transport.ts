import { spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { client as clientApp, ndJsonStream } from '@agentclientprotocol/sdk';
import { Agent, type ModelEvent, messageText, type Provider } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { median } from '../measure.js';
import type { AcpTransportResult } from '../results.js';

/** The wall clock in ms, with sub-millisecond digits, the same in every process of the machine. */
const now = () => performance.timeOrigin + performance.now();

/**
 * A model that streams `deltas N pace P` (from the prompt): N text deltas, one
 * every P ms (0: as fast as it can), each delta the time it was made, so the
 * reader can tell how long each one took to reach it.
 */
export function stampingModel(): Provider {
  return {
    name: 'stamped',
    async *stream(request) {
      const last = request.messages.at(-1);
      // A string in process, text blocks through ACP.
      const prompt = last === undefined ? '' : messageText(last);
      const [, count = '0', pace = '0'] = /deltas (\d+) pace (\d+)/.exec(prompt) ?? [];
      const deltas = Number(count);
      for (let index = 0; index < deltas; index++) {
        if (Number(pace) > 0) await new Promise((resolve) => setTimeout(resolve, Number(pace)));
        yield { type: 'text_delta', delta: `${now().toFixed(3)};` } satisfies ModelEvent;
      }
      yield {
        type: 'done',
        message: { role: 'assistant', content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn' },
      } satisfies ModelEvent;
    },
  };
}

/** What one prompt's deltas showed its reader. */
interface Reading {
  /** Per delta, ms from its making to its reader. */
  latencies: number[];
  /** From the first delta made to the last one read, ms. */
  spanMs: number;
}

/** Reads the stamps of one delta's text (one or several, as chunks arrive). */
function reader() {
  const latencies: number[] = [];
  let first: number | undefined;
  let last = 0;
  return {
    read(text: string) {
      const at = now();
      for (const stamp of text.split(';')) {
        if (stamp === '') continue;
        const made = Number(stamp);
        first ??= made;
        latencies.push(at - made);
        last = at;
      }
    },
    done(): Reading {
      return { latencies, spanMs: last - (first ?? last) };
    },
  };
}

/** The same agent driven in this process: a listener reads each `text_delta` as the loop emits it. */
async function inProcess(prompt: string): Promise<Reading> {
  const agent = new Agent({ provider: stampingModel(), model: 'stamped', orchestrator: agentic() });
  const reading = reader();
  agent.subscribe((event) => {
    if (event.type === 'text_delta') reading.read(event.delta);
  });
  await agent.prompt(prompt).result();
  return reading.done();
}

/** The agent in its own process behind `serveAcp` on stdio, read by the official ACP client. */
async function throughAcp(prompts: string[]): Promise<Reading[]> {
  const script = fileURLToPath(new URL('../acp-server.js', import.meta.url));
  const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
  let reading = reader();
  const app = clientApp({ name: 'bench' }).onNotification('session/update', ({ params }) => {
    const update = params.update;
    if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text')
      reading.read(update.content.text);
  });
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout) as unknown as ReadableStream<Uint8Array>,
    ),
  );
  await connection.agent.request('initialize', { protocolVersion: 1 });
  const { sessionId } = await connection.agent.request('session/new', { cwd: process.cwd(), mcpServers: [] });
  const readings: Reading[] = [];
  for (const prompt of prompts) {
    reading = reader();
    await connection.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: prompt }] });
    readings.push(reading.done());
  }
  connection.close();
  child.stdin.end();
  await new Promise((resolve) => child.once('exit', resolve));
  return readings;
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
};

/**
 * Workload 8: what serving over ACP adds. A paced stream (`paced` deltas, one
 * every 2 ms, so nothing queues) gives the latency of each delta, the first one
 * included; a flood (`flood` deltas, as fast as the model makes them) gives
 * deltas per second. The same agent runs in this process and behind
 * `serveAcp` in a child process, alternately, `rounds` times each.
 */
export async function measureAcpTransport(
  rounds = 3,
  paced = 500,
  flood = 10_000,
): Promise<AcpTransportResult> {
  const pacedPrompt = `deltas ${paced} pace 2`;
  const floodPrompt = `deltas ${flood} pace 0`;
  const local: Reading[] = [];
  const remote: Reading[] = [];
  const localFlood: number[] = [];
  const remoteFlood: number[] = [];
  // A warm-up of each, then alternate rounds so the machine's load falls on both alike.
  await inProcess(`deltas 200 pace 0`);
  await throughAcp(['deltas 200 pace 0']);
  for (let round = 0; round < rounds; round++) {
    local.push(await inProcess(pacedPrompt));
    localFlood.push((await inProcess(floodPrompt)).spanMs);
    const [pacedReading, floodReading] = await throughAcp([pacedPrompt, floodPrompt]);
    if (pacedReading !== undefined) remote.push(pacedReading);
    if (floodReading !== undefined) remoteFlood.push(floodReading.spanMs);
  }
  const summary = (readings: Reading[], spans: number[]) => {
    const latencies = readings.flatMap((reading) => reading.latencies);
    return {
      firstDeltaMs: median(readings.map((reading) => reading.latencies[0] ?? 0)),
      medianMs: median(latencies),
      p99Ms: percentile(latencies, 0.99),
      deltasPerSecond: flood / (median(spans) / 1000),
    };
  };
  return { rounds, paced, flood, inProcess: summary(local, localFlood), acp: summary(remote, remoteFlood) };
}
