// PATCH bodies: a field left out (undefined) stays as it is; null is a value (it clears the field).

/** The fields the caller sent, without the undefined ones. */
export function definedFields<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
