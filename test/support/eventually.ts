// The one way tests wait for what happens asynchronously (workflow activities, webhooks, messages,
// processes starting): poll a probe until it gives a value. Never a fixed sleep before a check: a
// check that something did NOT happen needs a barrier instead (see CONTRIBUTING.md, "Tests").

/**
 * Polls `probe` every 100 ms until it gives a value (not undefined, null or false), and returns it.
 * After `timeoutMs` it throws, naming `what` (a function is read then, e.g. a process's output so far).
 */
export async function eventually<T>(probe: () => Promise<T | undefined | null | false>, what: string | (() => string), timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Whether `url` answers 200 now (false while the process is not listening yet). */
export async function answers200(url: string): Promise<boolean> {
  return fetch(url).then(
    (res) => res.status === 200,
    () => false,
  );
}
