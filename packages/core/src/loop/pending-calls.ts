import type { ToolCallBlock } from '../messages/messages.js';

/**
 * The history's unanswered tool calls, in the order they were made. A turn
 * leaves one or a few, so they are kept in two short arrays searched in
 * order: cheaper than a `Map`, whose table is made anew as it empties, once
 * per step. Adding a call whose id is already pending replaces it in place,
 * as `Map.set` would. A call being run is marked (`claim`), so it is not run twice at once.
 */
export class PendingCalls {
  readonly #ids: string[] = [];
  readonly #calls: ToolCallBlock[] = [];
  /** Whether each call is running now (`claim`): a second run of it is refused. */
  readonly #running: boolean[] = [];

  get size(): number {
    return this.#ids.length;
  }

  has(id: string): boolean {
    return this.#ids.indexOf(id) !== -1;
  }

  /** The pending call with this id, if any. */
  get(id: string): ToolCallBlock | undefined {
    const index = this.#ids.indexOf(id);
    return index === -1 ? undefined : this.#calls[index];
  }

  add(call: ToolCallBlock): void {
    const index = this.#ids.indexOf(call.id);
    if (index !== -1) {
      this.#calls[index] = call;
      return;
    }
    this.#ids.push(call.id);
    this.#calls.push(call);
    this.#running.push(false);
  }

  /** Marks the pending call with this id as running and returns it; undefined when none is pending or it already runs. */
  claim(id: string): ToolCallBlock | undefined {
    const index = this.#ids.indexOf(id);
    if (index === -1 || this.#running[index] === true) return undefined;
    this.#running[index] = true;
    return this.#calls[index];
  }

  /** True while the pending call with this id runs. */
  running(id: string): boolean {
    const index = this.#ids.indexOf(id);
    return index !== -1 && this.#running[index] === true;
  }

  /** Ends the run of a call that is still pending (it paused, or its run was refused). */
  release(id: string): void {
    const index = this.#ids.indexOf(id);
    if (index !== -1) this.#running[index] = false;
  }

  /** Removes the call with this id; false when none is pending. */
  delete(id: string): boolean {
    const ids = this.#ids;
    const index = ids.indexOf(id);
    if (index === -1) return false;
    if (index === ids.length - 1) {
      ids.pop();
      this.#calls.pop();
      this.#running.pop();
    } else {
      ids.splice(index, 1);
      this.#calls.splice(index, 1);
      this.#running.splice(index, 1);
    }
    return true;
  }

  /** The pending calls in call order, as a copy: answering them while iterating is safe. */
  list(): ToolCallBlock[] {
    return this.#calls.slice();
  }
}
