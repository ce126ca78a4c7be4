import type { TraceContext } from '../trace/trace-context.js';

/** Options of one `prompt()`. */
export interface PromptOptions {
  /** Aborts this run; it ends with `aborted`. */
  signal?: AbortSignal;
  /**
   * A W3C `traceparent` header value: the run joins that trace, its root span
   * a child of that span. Malformed values throw `ConfigError` (check untrusted
   * headers with `parseTraceparent` first).
   */
  traceparent?: string;
  /** The parent trace context as ids; wins over `traceparent`. */
  trace?: TraceContext;
  /**
   * Trace contexts this run relates to without being their child, such as the
   * first run of a resumed session (`SessionState.trace`); tracers record them as span links.
   */
  links?: readonly TraceContext[];
}
