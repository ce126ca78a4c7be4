/**
 * Freezes a message as it joins the history, with its content blocks and
 * usage: a provider or listener handed the history cannot change it in place.
 * A user, assistant or tool-result message takes a path of its own (an
 * `Object.freeze`, about 40 to 70 ns, per object). Left as they are: its content
 * array, since on Node 20 a frozen array makes every `filter`, `map` or
 * `for...of` over it several times slower for every provider and
 * orchestrator that reads the history, and a tool call's input, which a
 * JSON Schema tool is handed as it is. An app-defined message is frozen
 * through its plain objects and arrays (it may hold other things, left as
 * they are). Paid once per message, never again per step.
 */
export function freezeMessage<Message>(message: Message): Message {
  const role = (message as { role?: unknown }).role;
  if (role !== 'user' && role !== 'assistant' && role !== 'toolResult') {
    freezePlain(message);
    return message;
  }
  // Not asked whether it is frozen already (Object.isFrozen costs about as much as a freeze):
  // a message joins the history once, and freezing a frozen object changes nothing.
  Object.freeze(message);
  const content = (message as { content?: unknown }).content;
  if (Array.isArray(content)) {
    for (let index = 0; index < content.length; index++) Object.freeze(content[index]);
  }
  const usage = (message as { usage?: unknown }).usage;
  if (usage !== undefined) Object.freeze(usage);
  return message;
}

/** Freezes plain objects and arrays, through and through; anything else is left as it is. */
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
  for (const key of Object.keys(value)) freezePlain((value as Record<string, unknown>)[key]);
}
