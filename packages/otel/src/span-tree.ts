/**
 * The parts of a finished span that a tree needs: what the SDK's
 * `ReadableSpan` has (SDK 2.x `parentSpanContext`, or 1.x `parentSpanId`).
 */
export interface TreeSpan {
  readonly name: string;
  spanContext(): { traceId: string; spanId: string };
  readonly parentSpanContext?: { spanId: string } | undefined;
  readonly parentSpanId?: string | undefined;
  /** `[seconds, nanoseconds]`, as OpenTelemetry's HrTime. */
  readonly startTime: readonly [number, number];
  readonly duration: readonly [number, number];
  readonly status: { code: number; message?: string | undefined };
  readonly attributes: Readonly<Record<string, unknown>>;
}

/** Options of `formatSpanTree`. */
export interface SpanTreeOptions {
  /** Attribute names to print after each span, when present. Default: token usage, error type, tool call id. */
  attributes?: readonly string[];
}

const defaultAttributes = [
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
  'gen_ai.tool.call.id',
  'error.type',
];

/** Status code of an errored span in `@opentelemetry/api`'s `SpanStatusCode`. */
const errorStatus = 2;

/**
 * Draws finished spans as a tree, one line per span with its duration,
 * children under their parent in start order; spans whose parent is not in
 * the list are roots. For a CLI's `--trace` view of a run.
 *
 * @example
 * const collector = spanTreeCollector();
 * // new BasicTracerProvider({ spanProcessors: [collector] }) ... run the agent ...
 * process.stderr.write(formatSpanTree(collector.spans));
 */
export function formatSpanTree(spans: readonly TreeSpan[], options: SpanTreeOptions = {}): string {
  const names = options.attributes ?? defaultAttributes;
  const byId = new Map<string, TreeSpan>();
  for (const span of spans) byId.set(span.spanContext().spanId, span);
  const children = new Map<string | undefined, TreeSpan[]>();
  for (const span of spans) {
    const parent = parentOf(span);
    const key = parent !== undefined && byId.has(parent) ? parent : undefined;
    const list = children.get(key);
    if (list === undefined) children.set(key, [span]);
    else list.push(span);
  }
  for (const list of children.values())
    list.sort((a, b) => nanoseconds(a.startTime) - nanoseconds(b.startTime));

  const lines: string[] = [];
  const draw = (span: TreeSpan, prefix: string, connector: string, childPrefix: string) => {
    lines.push(`${prefix}${connector}${describe(span, names)}`);
    const list = children.get(span.spanContext().spanId) ?? [];
    list.forEach((child, index) => {
      const last = index === list.length - 1;
      draw(child, prefix + childPrefix, last ? '└─ ' : '├─ ', last ? '   ' : '│  ');
    });
  };
  for (const root of children.get(undefined) ?? []) draw(root, '', '', '');
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

function parentOf(span: TreeSpan): string | undefined {
  return span.parentSpanContext?.spanId ?? span.parentSpanId;
}

function nanoseconds(time: readonly [number, number]): number {
  return time[0] * 1e9 + time[1];
}

function describe(span: TreeSpan, names: readonly string[]): string {
  const milliseconds = nanoseconds(span.duration) / 1e6;
  let line = `${span.name}  ${milliseconds < 10 ? milliseconds.toFixed(1) : Math.round(milliseconds)} ms`;
  const details: string[] = [];
  for (const name of names) {
    const value = span.attributes[name];
    if (value !== undefined) details.push(`${name.replace(/^gen_ai\./, '')}=${String(value)}`);
  }
  if (details.length > 0) line += `  ${details.join(' ')}`;
  if (span.status.code === errorStatus) line += '  ERROR';
  return line;
}

/** A span processor that keeps every finished span, for `formatSpanTree`. */
export interface SpanTreeCollector {
  /** Finished spans, in the order they ended. */
  readonly spans: TreeSpan[];
  /** The tree of the spans so far. */
  format(options?: SpanTreeOptions): string;
  /** Forgets the spans collected so far. */
  clear(): void;
  onStart(): void;
  onEnd(span: TreeSpan): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * A span processor (structurally what the SDK's `SpanProcessor` asks for)
 * that collects finished spans in memory, so a CLI can print the tree of a
 * run when it ends: pass it in the tracer provider's `spanProcessors`.
 */
export function spanTreeCollector(): SpanTreeCollector {
  const spans: TreeSpan[] = [];
  return {
    spans,
    format: (options) => formatSpanTree(spans, options),
    clear: () => {
      spans.length = 0;
    },
    onStart: () => {},
    onEnd: (span) => {
      spans.push(span);
    },
    forceFlush: async () => {},
    shutdown: async () => {},
  };
}
