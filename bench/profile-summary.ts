// Summarises a V8 CPU profile (node --cpu-prof): where the self time went, by function and by
// package, and the total time under a few frames of interest. Usage:
//   npx tsx bench/profile-summary.ts /tmp/prof/CPU.*.cpuprofile [--top 25] [--last 20]
// --last S keeps only the samples of the profile's last S seconds (a bench's sustained phase, without
// the process's start-up: module loading, the workflow bundle, the contract's compilation).
import fs from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 25;
const lastAt = args.indexOf('--last');
const lastUs = lastAt >= 0 ? Number(args[lastAt + 1]) * 1e6 : Infinity;
const files = args.filter((a, i) => !a.startsWith('--') && i !== topAt + 1 && i !== lastAt + 1);

function packageOf(url: string): string {
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const own = url.match(/dist\/([^/]+)\//);
  return own ? `(own) ${own[1]}` : url ? '(other)' : '(native/gc/idle)';
}

for (const file of files) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  const sampledUs = profile.timeDeltas.reduce((a, b) => a + b, 0);
  let atUs = 0;
  profile.samples.forEach((id, i) => {
    atUs += profile.timeDeltas[i] ?? 0;
    if (sampledUs - atUs > lastUs) return;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const idle = [...selfUs.entries()].filter(([id]) => ['(idle)', '(program)'].includes(byId.get(id)!.callFrame.functionName)).reduce((a, [, us]) => a + us, 0);
  const byFn = new Map<string, number>();
  const byPkg = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}:${lineNumber + 1}`;
    byFn.set(key, (byFn.get(key) ?? 0) + us);
    byPkg.set(packageOf(url), (byPkg.get(packageOf(url)) ?? 0) + us);
  }
  const busy = total - idle;
  console.log(`\n${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(2)} s busy (not idle/program)`);
  const show = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .forEach(([k, us]) => console.log(`  ${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${k}`));
  console.log(' self time by package:');
  show(byPkg, 15);
  console.log(' self time by function:');
  show(byFn, top);
}
