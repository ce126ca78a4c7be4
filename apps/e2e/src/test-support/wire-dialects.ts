import { anthropicDialect } from './anthropic-dialect.js';
import { chatDialect, responsesDialect } from './openai-dialects.js';
import type { WireDialect } from './wire-dialect.js';

export { type FaultKind, faultKinds, type WireDialect } from './wire-dialect.js';

/** The three wire formats the providers speak. */
export const wireDialects: readonly WireDialect[] = [anthropicDialect, chatDialect, responsesDialect];
