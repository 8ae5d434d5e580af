// Postgres's CPU by client, for bench:e2e: each backend's CPU from /proc, credited to the process on the
// other end of its connection (the client port in the backend's process title, the socket with that
// local port in /proc/net/tcp, the process holding that socket). It says how much of Postgres's time
// goes to the api's transactions, the worker's reads and deliveries, and the Temporal server's own
// persistence, which the per-process totals cannot.
import fs from 'node:fs';
import { processCpuMs } from './proc-cpu';

export interface Backend {
  cpuMs: number;
  /** the client's TCP port; null for Postgres's own processes (writers, autovacuum, the postmaster) */
  clientPort: number | null;
}

/** Every process of the bench's Postgres (the postmaster and its children), by pid. */
export function postgresBackends(postmasterPid: number): Map<number, Backend> {
  const out = new Map<number, Backend>();
  const children = fs.readFileSync(`/proc/${postmasterPid}/task/${postmasterPid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  for (const pid of [postmasterPid, ...children]) {
    try {
      // a backend's title: "postgres: <user> <database> 127.0.0.1(<client port>) <state>"
      const title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const port = /\((\d+)\)/.exec(title)?.[1];
      out.set(pid, { cpuMs: processCpuMs(pid), clientPort: port ? Number(port) : null });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * The CPU each client's backends spent between two readings, by client name: `clients` names the
 * processes that may hold connections (their pids); a backend whose client is none of them (or has
 * gone) counts as `other`, Postgres's own processes as `background`.
 */
export function postgresCpuByClient(
  before: Map<number, Backend>,
  after: Map<number, Backend>,
  postgresPort: number,
  clients: { name: string; pid: number }[],
): Record<string, number> {
  const ownerOfPort = clientPortOwners(postgresPort, clients);
  const out: Record<string, number> = {};
  for (const [pid, now] of after) {
    const name = now.clientPort === null ? 'background' : (ownerOfPort.get(now.clientPort) ?? 'other');
    out[name] = (out[name] ?? 0) + now.cpuMs - (before.get(pid)?.cpuMs ?? 0);
  }
  return out;
}

/** client port -> the name of the process holding that connection to Postgres */
function clientPortOwners(postgresPort: number, clients: { name: string; pid: number }[]): Map<number, string> {
  const inodeOfPort = new Map<string, number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st ... uid timeout inode; addresses as HEXADDR:HEXPORT
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const localPort = parseInt(fields[1].split(':')[1], 16);
      const remotePort = parseInt(fields[2].split(':')[1], 16);
      if (remotePort === postgresPort) inodeOfPort.set(fields[9], localPort);
    }
  }
  const owners = new Map<number, string>();
  for (const { name, pid } of clients) {
    let fds: string[] = [];
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
        const port = inode && inodeOfPort.get(inode);
        if (port) owners.set(port, name);
      } catch {
        // closed meanwhile
      }
    }
  }
  return owners;
}
