// CPU time from Linux's /proc, for the benchmarks: the kernel's own count, which a noisy host does
// not bend the way a wall-clock profile does.
import fs from 'node:fs';

const CLOCK_TICK_MS = 10; // USER_HZ is 100 on Linux

/** User + system CPU milliseconds of a process, or of one thread with `/proc/<pid>/task/<tid>/stat`. */
export function processCpuMs(pid: number, statFile = `/proc/${pid}/stat`): number {
  const stat = fs.readFileSync(statFile, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS; // utime, stime
}

/** The CPU milliseconds of a process's main thread (for Node, its event loop's). */
export function mainThreadCpuMs(pid: number): number {
  return processCpuMs(pid, `/proc/${pid}/task/${pid}/stat`);
}
