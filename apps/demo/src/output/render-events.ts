import type { AgentEvent, AgentResult, ToolCallBlock } from '@agent-core/core';
import { cliWords } from './cli-words.js';
import type { MarkdownStream } from './markdown-stream.js';
import { type OutputStream, type Style, styleFor } from './terminal-style.js';

/** What the CLI says when a run completed without any text to show. */
export const noTextMessage = 'The model returned no text.';

/** How a renderer writes. */
export interface RendererOptions {
  out: OutputStream;
  /** Colours, a spinner and rendered markdown; otherwise plain, stable lines. */
  rich: boolean;
  /** Show the model's thinking (dimmed, on a terminal only). */
  showThinking: boolean;
}

/** The spinner's surface (yocto-spinner's), loaded only for a terminal. */
interface Spinner {
  start(text?: string): unknown;
  stop(finalText?: string): unknown;
  text: string;
  readonly isSpinning: boolean;
}

/**
 * Prints runs as a person reads them: the answer streamed as it arrives
 * (markdown rendered and thinking dimmed on a terminal), one status line per
 * tool call (with a spinner while it runs on a terminal) ending in its outcome
 * and duration, retries and errors. Piped or with `NO_COLOR`: plain lines, no escape codes.
 */
export class EventRenderer {
  readonly listener: (event: AgentEvent) => void;
  readonly style: Style;
  readonly #options: RendererOptions;
  readonly #markdown: MarkdownStream | undefined;
  readonly #spinner: Spinner | undefined;
  readonly #running = new Map<string, ToolCallBlock>();
  #atLineStart = true;
  #thinking = false;

  private constructor(
    options: RendererOptions,
    markdown: MarkdownStream | undefined,
    spinner: Spinner | undefined,
    style: Style,
  ) {
    this.#options = options;
    this.#markdown = markdown;
    this.#spinner = spinner;
    this.style = style;
    this.listener = (event) => this.#render(event);
  }

  /** Makes a renderer; on a terminal it first loads the markdown parser and the spinner. */
  static async create(options: RendererOptions): Promise<EventRenderer> {
    const style = styleFor(options.out, options.rich ? { TERM: 'xterm' } : { NO_COLOR: '1' });
    if (!options.rich) return new EventRenderer(options, undefined, undefined, style);
    const [{ MarkdownStream }, { default: yoctoSpinner }] = await Promise.all([
      import('./markdown-stream.js'),
      import('yocto-spinner'),
    ]);
    let renderer: EventRenderer | undefined;
    const markdown = new MarkdownStream((text) => renderer?.write(text), style);
    const spinner = yoctoSpinner({
      stream: options.out as NodeJS.WriteStream,
      handleSignals: false,
      color: 'cyan',
    }) as unknown as Spinner;
    renderer = new EventRenderer(options, markdown, spinner, style);
    return renderer;
  }

  /** Writes text, tracking whether the output is at a line start. */
  write(text: string): void {
    if (text === '') return;
    this.#options.out.write(text);
    this.#atLineStart = text.endsWith('\n');
  }

  /** Writes a whole line, starting a new one first if needed. */
  line(text: string): void {
    this.#endPartial();
    this.write(`${text}\n`);
  }

  /** Stops the spinner before a question is asked (an inline approval); `resume` starts it again. */
  pause(): void {
    if (this.#spinner?.isSpinning) this.#spinner.stop();
    this.#endPartial();
  }

  /** Starts the spinner again for the calls still running. */
  resume(): void {
    this.#spin();
  }

  #endPartial(): void {
    this.#markdown?.flush();
    if (this.#thinking) {
      this.#thinking = false;
      if (!this.#atLineStart) this.write('\n');
    }
    if (!this.#atLineStart) this.write('\n');
  }

  #render(event: AgentEvent): void {
    const style = this.style;
    switch (event.type) {
      case 'thinking_delta':
        if (!this.#options.rich || !this.#options.showThinking) break;
        if (!this.#thinking) {
          this.#endPartial();
          this.#thinking = true;
          this.write(style.dim(style.italic('thinking: ')));
        }
        this.write(style.dim(event.delta));
        break;
      case 'text_delta':
        if (this.#thinking) this.#endPartial();
        if (this.#markdown !== undefined) this.#markdown.push(event.delta);
        else this.write(event.delta);
        break;
      case 'tool_call_start':
        this.#running.set(event.toolCall.id, event.toolCall);
        if (this.#spinner !== undefined) {
          this.#endPartial();
          this.#spin();
        }
        break;
      case 'approval_request':
        this.pause();
        break;
      case 'tool_call_end': {
        this.#running.delete(event.toolCall.id);
        const mark = event.isError ? style.red('✗') : style.green('✓');
        const text = `  ${mark} ${toolLabel(event.toolCall, style)} → ${preview(event.result)} ${style.dim(`· ${formatDuration(event.durationMs)}`)}`;
        if (this.#spinner?.isSpinning) this.#spinner.stop();
        this.line(text);
        this.#spin();
        break;
      }
      case 'tool_skipped':
        this.#running.delete(event.toolCall.id);
        if (this.#spinner?.isSpinning) this.#spinner.stop();
        this.line(`  ${style.yellow('↷')} ${toolLabel(event.toolCall, style)} skipped: ${event.reason}`);
        this.#spin();
        break;
      case 'steering':
        this.line(style.dim(`  ↳ steering: ${summarize(event)}`));
        break;
      case 'follow_up':
        this.line(style.dim(`  ↳ follow-up: ${summarize(event)}`));
        break;
      case 'compaction':
        this.line(
          style.dim(`  ⇣ compacted the history sent: ${event.tokensBefore} → ${event.tokensAfter} tokens`),
        );
        break;
      case 'retry':
        this.line(
          style.yellow(
            `  … ${event.error.kind} from ${event.provider}; retry ${event.attempt} in ${event.delayMs} ms`,
          ),
        );
        break;
      case 'error':
        this.line(style.red(`Error: ${cliWords(event.error.message)}`));
        break;
      case 'agent_end':
        this.#running.clear();
        if (this.#spinner?.isSpinning) this.#spinner.stop();
        this.#endPartial();
        this.#ending(event.result);
        break;
    }
  }

  #ending(result: AgentResult): void {
    const reason = result.terminateReason;
    if (reason === 'completed' && result.text.trim() === '') this.line(`[no text] ${noTextMessage}`);
    else if (reason === 'max_turns') this.line(`[max_turns] ${result.text}`);
    else if (reason !== 'completed' && reason !== 'error' && reason !== 'await_user')
      this.line(`[${reason}]`);
  }

  #spin(): void {
    const spinner = this.#spinner;
    if (spinner === undefined || this.#running.size === 0) return;
    const calls = [...this.#running.values()];
    const latest = calls[calls.length - 1] as ToolCallBlock;
    const text = `${toolLabel(latest, this.style)}${calls.length > 1 ? this.style.dim(` (+${calls.length - 1} more)`) : ''}`;
    if (spinner.isSpinning) spinner.text = text;
    else spinner.start(text);
  }
}

function summarize(event: { message: unknown }): string {
  const content = (event.message as { content?: unknown }).content;
  const text = typeof content === 'string' ? content : '';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** `name {input}`, the input as compact JSON cut to a line. */
export function toolLabel(call: ToolCallBlock, style: Style): string {
  const input = JSON.stringify(call.input);
  return `${style.bold(call.name)} ${input.length > 100 ? `${input.slice(0, 97)}...` : input}`;
}

/** A tool result on one line, cut to 120 characters. */
export function preview(result: string | readonly { type: string; text?: string }[]): string {
  const text =
    typeof result === 'string' ? result : result.map((block) => block.text ?? `[${block.type}]`).join(' ');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 117)}...` : flat;
}

/** `12 ms`, `1.2 s`, `3 min 4 s`. */
export function formatDuration(milliseconds: number): string {
  if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
  if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
  return `${Math.floor(milliseconds / 60_000)} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
}
