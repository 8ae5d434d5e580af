// The platform's compiled entry points (dist/) as child processes, for the tests that run it the way
// an operator does: configured by environment only, output collected for failure messages.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const DIST = path.resolve(__dirname, '../../dist');

export interface Proc {
  child: ChildProcess;
  /** stdout and stderr so far */
  output: string;
  /** the exit code (null when ended by a signal) */
  exited: Promise<number | null>;
}

// No process outlives the test run that started it (mocha --exit ends the run with process.exit).
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** `node dist/<file> ...args` (or an absolute `file`) with only PATH and `env` in its environment. */
export function run(file: string, env: NodeJS.ProcessEnv, args: string[] = []): Proc {
  return runExecutable(process.execPath, env, [path.resolve(DIST, file), ...args]);
}

/** An executable (`file ...args`) with only PATH and `env` in its environment. */
export function runExecutable(file: string, env: NodeJS.ProcessEnv, args: string[] = []): Proc {
  const child = spawn(file, args, { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const proc: Proc = {
    child,
    output: '',
    exited: new Promise((resolve) =>
      child.once('exit', (code) => {
        running.delete(child);
        resolve(code);
      }),
    ),
  };
  child.stdout!.on('data', (d: Buffer) => (proc.output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (proc.output += d.toString()));
  return proc;
}
