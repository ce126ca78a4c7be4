import type { CassetteMessage, CassetteRequest } from './cassette-data.js';

/** The first `length` messages of `source`, an array that only ever grows past `length`. */
export interface MessagesView {
  source: readonly CassetteMessage[];
  length: number;
}

const views = new WeakMap<CassetteRequest, MessagesView>();

/**
 * A recorded request whose messages are a view of a shared, growing array:
 * the entries of one conversation hold one array between them, so n steps
 * take memory linear in n, not quadratic. `messages` is copied out the first
 * time it is read (by people, or a diff); this package reads `messagesOf`.
 */
export function viewRequest(fields: Omit<CassetteRequest, 'messages'>, view: MessagesView): CassetteRequest {
  let copied: readonly CassetteMessage[] | undefined;
  const request = { ...fields } as CassetteRequest;
  Object.defineProperty(request, 'messages', {
    enumerable: true,
    get: () => {
      copied ??= view.source.slice(0, view.length);
      return copied;
    },
  });
  views.set(request, view);
  return request;
}

/** A request's messages as a view, without copying those of a `viewRequest`. */
export function messagesOf(request: CassetteRequest): MessagesView {
  return views.get(request) ?? { source: request.messages, length: request.messages.length };
}
