export { instrument } from './instrument.js';
export type { InstrumentOptions } from './instrument-options.js';
export {
  attributes,
  contentAttributes,
  contentEvents,
  finishReasons,
  latestOptIn,
  operations,
  providerNameAttribute,
  semconvVersionFromEnvironment,
  spanNames,
} from './semconv.js';
export type { SemconvVersion } from './semconv.js';
export { formatSpanTree, spanTreeCollector } from './span-tree.js';
export type { SpanTreeCollector, SpanTreeOptions, TreeSpan } from './span-tree.js';
