// The one clock type. Domain code reads "now" only through an injected Clock (deps.now) or takes
// `now` as a parameter; `npm run lint` (salon/injected-clock) forbids new Date() and Date.now() in
// domain/. The system clock below is the one place that reads the machine's time.

/** What time it is. Production and the embedded stack inject the system clock; tests inject their own. */
export type Clock = () => Date;

// eslint-disable-next-line salon/injected-clock -- the system clock: the one reading of the machine's time
export const systemClock: Clock = () => new Date();

/** `deps.now` when the caller injected a clock, else the system clock. */
export const nowOf = (deps: { now?: Clock }): Date => (deps.now ?? systemClock)();
