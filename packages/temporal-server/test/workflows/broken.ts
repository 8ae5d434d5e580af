// A deliberately broken variant of `returnsInput`: its workflow task fails (plain Error), so the
// server must record the failure and retry the task; a fixed worker then completes it.
export async function returnsInput<T>(_x: T): Promise<T> {
  throw new Error('workflow task failure on purpose');
}
