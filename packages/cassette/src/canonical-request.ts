import type { ModelRequest } from '@agent-core/core';
import type { CassetteRequest } from './cassette-data.js';
import { CanonicalCursor } from './canonical-cursor.js';
import { environmentSecrets } from './environment-secrets.js';
import { HeaderCanon } from './request-header.js';

/**
 * A request in the canonical form a cassette matches and stores
 * (`CassetteRequest`): tool-call ids by order, assistant messages cut to
 * what a model is sent, settings that are set, and every string redacted
 * (secret-shaped text, the environment's credential variables, `secrets`).
 */
export function canonicalRequest(
  request: ModelRequest,
  options: { secrets?: readonly string[] } = {},
): CassetteRequest {
  const redact = { secrets: [...environmentSecrets(), ...(options.secrets ?? [])] };
  const cursor = new CanonicalCursor(redact);
  cursor.advance(request.messages);
  return { ...new HeaderCanon(redact).of(request).values, messages: cursor.messages() };
}
