import * as z from 'zod/mini';
import { en } from 'zod/v4/locales';

// Loaded on the first parse only (see parse-session-state.ts), so importing core stays cheap.
// Objects are loose: a field this version does not know is kept, never dropped on a round trip.
// zod/mini and named imports, not `import { z } from 'zod'`: bundlers then keep only what this
// schema uses, instead of all of zod with every locale.

// Issue messages in English, as zod's classic API sets on first use; a locale the app chose wins.
if (z.config().localeError === undefined) z.config(en());

const usage = z.looseObject({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  cost: z.optional(z.number()),
});
const text = z.looseObject({ type: z.literal('text'), text: z.string() });
const image = z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string() });
const thinking = z.looseObject({
  type: z.literal('thinking'),
  thinking: z.string(),
  signature: z.optional(z.string()),
  redacted: z.optional(z.boolean()),
});
const toolCall = z.looseObject({
  type: z.literal('toolCall'),
  id: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
});
const userContent = z.union([z.string(), z.array(z.discriminatedUnion('type', [text, image]))]);

const user = z.looseObject({ role: z.literal('user'), content: userContent });
const assistant = z.looseObject({
  role: z.literal('assistant'),
  content: z.array(z.discriminatedUnion('type', [text, thinking, toolCall])),
  stopReason: z.enum(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal', 'aborted', 'error']),
  usage: z.optional(usage),
  provider: z.optional(z.string()),
  model: z.optional(z.string()),
  errorMessage: z.optional(z.string()),
});
const toolResult = z.looseObject({
  role: z.literal('toolResult'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: userContent,
  isError: z.boolean(),
});
const modelSchemas: Record<string, z.ZodMiniType> = { user, assistant, toolResult };
/** A model message checked against its role's schema; any other role is an app-defined kind, kept as it is. */
const message = z.looseObject({ role: z.string() }).check(
  z.superRefine((value, context) => {
    const schema = modelSchemas[value.role];
    if (schema === undefined) return;
    const checked = schema.safeParse(value);
    if (checked.success) return;
    for (const issue of checked.error.issues) {
      context.addIssue({
        code: 'custom',
        message: `${value.role} message: ${issue.message}`,
        path: issue.path,
      });
    }
  }),
);

const pendingApproval = z.looseObject({
  toolCallId: z.string(),
  toolName: z.string(),
  input: z.record(z.string(), z.unknown()),
  inputHash: z.string(),
  risk: z.enum(['read', 'write', 'execute', 'network']),
  reason: z.string(),
  agentPath: z.array(z.string()),
  requestedAt: z.string(),
});

/** The zod (zod/mini) schema of `SessionState` at the current `schemaVersion`. */
export const sessionStateSchema = z.looseObject({
  id: z.string().check(z.minLength(1)),
  schemaVersion: z.number().check(z.int()),
  version: z.number().check(z.int(), z.gte(0)),
  status: z.enum(['idle', 'running', 'interrupted', 'await_user', 'failed']),
  createdAt: z.string(),
  updatedAt: z.string(),
  messages: z.array(message),
  metadata: z.record(z.string(), z.unknown()),
  usage,
  pendingApprovals: z._default(z.array(pendingApproval), []),
  alwaysAllowedTools: z._default(z.array(z.string()), []),
  lastSeq: z._default(z.number().check(z.int(), z.gte(0)), 0),
  trace: z.optional(z.looseObject({ traceId: z.string(), spanId: z.optional(z.string()) })),
});
