// moment-timezone, loaded on first use: most servers never compute a schedule time in a time zone,
// and loading its zone data at start-up delays the launcher's first answer (sdk-core gives a
// spawned server 5 s, a loaded machine needs most of them).
import type Moment from 'moment-timezone';

let loaded: typeof Moment | undefined;

export function momentTz(): typeof Moment {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('moment-timezone') as typeof Moment;
  return loaded;
}
