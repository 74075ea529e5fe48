/**
 * CPU and memory from /proc (Linux), sampled once a second: the server process (every thread,
 * libuv's pool included), its children (ffmpeg), this benchmark's whole process tree (server, load
 * clients, ffmpeg), PostgreSQL's processes, and what the rest of the machine used meanwhile, so a
 * run on a shared machine says how much other work it competed with.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

export interface ProcessUsage {
  /** Percent of one core, averaged over the run / its busiest second. */
  serverCpuMean: number;
  serverCpuPeak: number;
  childCpuMean: number;
  /** Everything this benchmark started (server, ffmpeg, load clients). */
  benchCpuMean: number;
  postgresCpuMean: number;
  /** Other processes on the machine, in percent of one core. */
  otherCpuMean: number;
  rssPeakMB: number;
  rssEndMB: number;
  machineBusyMean: number;
  cores: number;
}

interface Proc {
  ppid: number;
  comm: string;
  /** utime + stime */
  own: number;
  /** cutime + cstime: children already reaped */
  reaped: number;
}

function scan(): Map<number, Proc> {
  const procs = new Map<number, Proc>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' '); // from field 3 (state) on
      const n = (field: number) => Number(fields[field - 3]);
      procs.set(Number(entry), {
        ppid: n(4),
        comm: stat.slice(stat.indexOf('(') + 1, close),
        own: n(14) + n(15),
        reaped: n(16) + n(17),
      });
    } catch {
      // gone meanwhile
    }
  }
  return procs;
}

/** Ticks of `root` and every live descendant, including what their reaped children used. */
function treeTicks(procs: Map<number, Proc>, root: number): number {
  const children = new Map<number, number[]>();
  for (const [pid, p] of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop()!;
    const p = procs.get(pid);
    if (!p) continue;
    total += p.own + p.reaped;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Resident memory of a process now, in MB (0 once it is gone). */
export function rssMB(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function machine(): { busy: number; total: number } {
  const v = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - v[3]! - v[4]!, total };
}

interface Reading {
  at: number;
  server: number;
  serverChildren: number;
  bench: number;
  postgres: number;
  machine: { busy: number; total: number };
}

export class ProcessSampler {
  private timer: NodeJS.Timeout | undefined;
  private readonly series = {
    server: [] as number[],
    children: [] as number[],
    bench: [] as number[],
    postgres: [] as number[],
    other: [] as number[],
    busy: [] as number[],
  };
  private readonly rss: number[] = [];
  private last: Reading | undefined;

  constructor(
    private readonly serverPid: number,
    private readonly benchPid = process.pid,
  ) {}

  private read(): Reading | undefined {
    const procs = scan();
    const server = procs.get(this.serverPid);
    if (!server) return undefined;
    let postgres = 0;
    for (const p of procs.values()) if (p.comm === 'postgres') postgres += p.own;
    return {
      at: performance.now(),
      server: server.own,
      serverChildren: treeTicks(procs, this.serverPid) - server.own,
      bench: treeTicks(procs, this.benchPid),
      postgres,
      machine: machine(),
    };
  }

  start(): void {
    const sample = () => {
      const now = this.read();
      if (!now) return;
      if (this.last) {
        const seconds = (now.at - this.last.at) / 1000;
        const pct = (ticks: number) => (Math.max(0, ticks) / TICKS_PER_SECOND / seconds) * 100;
        const bench = pct(now.bench - this.last.bench);
        const postgres = pct(now.postgres - this.last.postgres);
        const busyTicks = now.machine.busy - this.last.machine.busy;
        const totalTicks = now.machine.total - this.last.machine.total;
        this.series.server.push(pct(now.server - this.last.server));
        this.series.children.push(pct(now.serverChildren - this.last.serverChildren));
        this.series.bench.push(bench);
        this.series.postgres.push(postgres);
        this.series.other.push(Math.max(0, pct(busyTicks) - bench - postgres));
        this.series.busy.push(totalTicks > 0 ? (busyTicks / totalTicks) * 100 : 0);
      }
      this.rss.push(rssMB(this.serverPid));
      this.last = now;
    };
    sample();
    this.timer = setInterval(sample, 1000);
  }

  stop(): ProcessUsage {
    clearInterval(this.timer);
    const mean = (list: number[]) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : 0);
    return {
      serverCpuMean: mean(this.series.server),
      serverCpuPeak: Math.max(0, ...this.series.server),
      childCpuMean: mean(this.series.children),
      benchCpuMean: mean(this.series.bench),
      postgresCpuMean: mean(this.series.postgres),
      otherCpuMean: mean(this.series.other),
      rssPeakMB: Math.max(0, ...this.rss),
      rssEndMB: this.rss.at(-1) ?? 0,
      machineBusyMean: mean(this.series.busy),
      cores: cpus().length,
    };
  }
}
