/**
 * Tool-call ids of one request mapped to `call_1`, `call_2`, ... in order of
 * first appearance. Ids are made by the provider (or the mock) anew on every
 * run, so two runs of one conversation differ in them and in nothing else;
 * matched by their order, they compare equal. `truncate` forgets the ids
 * seen after a point, for a request that shares only part of the previous one.
 */
export class ToolCallIds {
  readonly #names = new Map<string, string>();
  readonly #order: string[] = [];

  /** How many ids have been seen. */
  get count(): number {
    return this.#order.length;
  }

  /** The canonical name of `id`, given one when first seen. */
  normal(id: string): string {
    let name = this.#names.get(id);
    if (name === undefined) {
      this.#order.push(id);
      name = `call_${this.#order.length}`;
      this.#names.set(id, name);
    }
    return name;
  }

  /** Forgets every id seen after the first `count`. */
  truncate(count: number): void {
    while (this.#order.length > count) this.#names.delete(this.#order.pop() as string);
  }
}
