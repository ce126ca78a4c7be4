/**
 * Freezes a message as it joins the history, with everything in it (content
 * blocks, tool-call input, usage): a provider or listener handed the history
 * cannot change it in place. Only plain objects and arrays are frozen (an
 * app-defined message may hold other things); an object already frozen is
 * taken as frozen through. The cost is paid once per message, never per step.
 */
export function freezeMessage<Message>(message: Message): Message {
  freezePlain(message);
  return message;
}

function freezePlain(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    Object.freeze(value);
    for (const item of value) freezePlain(item);
    return;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return;
  Object.freeze(value);
  for (const key in value) freezePlain((value as Record<string, unknown>)[key]);
}
