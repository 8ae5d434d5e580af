// Long polls that wait for something about one run or execution to change (new history events, a
// run or activity closing): the subject wakes its waiters on every change, and the poll ends once
// `ready()` holds, the call is cancelled, or the poll expires.
import type { Call } from './messages';

export interface Watched {
  waiters: Set<() => void>;
}

export function waitForChange(subject: Watched, ready: () => boolean, call: Call, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (ready()) return resolve();
    let expired = false;
    const done = () => {
      if (!ready() && !call.cancelled && !expired) return;
      subject.waiters.delete(done);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      expired = true;
      done();
    }, timeoutMs);
    call.on('cancelled', done);
    subject.waiters.add(done);
  });
}
