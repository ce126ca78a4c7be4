// The two zod functions core needs for zod-defined tools, loaded by `loadSchemaSupport` on first use.
// Named re-exports, not `import('zod/v4/core')`: a dynamic import of zod's whole core keeps every
// export of it in a user's bundle (every locale included), while these let bundlers drop the rest.
export { safeParse, toJSONSchema } from 'zod/v4/core';
