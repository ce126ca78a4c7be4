/** What a Responses reasoning item needs to be replayed to the model that produced it. */
export interface ReasoningReplay {
  id: string;
  encryptedContent: string | undefined;
}

/** Packs a reasoning item's id and encrypted content into a thinking block's `signature`. */
export function encodeReasoningSignature(replay: ReasoningReplay): string {
  return JSON.stringify({
    type: 'openai_reasoning',
    id: replay.id,
    ...(replay.encryptedContent === undefined ? {} : { encrypted_content: replay.encryptedContent }),
  });
}

/** Unpacks a signature written by `encodeReasoningSignature`; undefined for any other signature. */
export function decodeReasoningSignature(signature: string | undefined): ReasoningReplay | undefined {
  if (signature === undefined || !signature.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(signature) as { type?: unknown; id?: unknown; encrypted_content?: unknown };
    if (value.type !== 'openai_reasoning' || typeof value.id !== 'string') return undefined;
    return {
      id: value.id,
      encryptedContent: typeof value.encrypted_content === 'string' ? value.encrypted_content : undefined,
    };
  } catch {
    return undefined;
  }
}
