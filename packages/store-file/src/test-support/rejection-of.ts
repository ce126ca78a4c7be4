import { expect } from 'vitest';

/** The error `action` rejects with, checked to be a `kind`; fails saying `whatHappened` when it resolves. */
export async function rejectionOf<Failure>(
  action: Promise<unknown>,
  kind: abstract new (...args: never[]) => Failure,
  whatHappened: string,
): Promise<Failure> {
  const error = await action.then(
    () => {
      throw new Error(whatHappened);
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(kind);
  return error as Failure;
}
