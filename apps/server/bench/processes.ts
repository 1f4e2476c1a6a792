/**
 * Resident memory of the server process and of every process below it (embedded PGlite child,
 * esbuild services started by a TypeScript loader...), read from /proc (Linux only).
 */
import fs from 'node:fs';

export type ProcessKind = 'server' | 'pglite' | 'esbuild' | 'other';

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
  if (/pglite/i.test(text)) return 'pglite';
  return 'other';
}

/** VmRSS and VmHWM (peak) of a process, in kB; undefined once it has exited. */
export function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
    return { rss: field('VmRSS'), hwm: field('VmHWM') };
  } catch {
    return undefined;
  }
}

export interface MemorySnapshot {
  /** kB per kind, summed over the processes of that kind. */
  byKind: Record<ProcessKind, number>;
  total: number;
  processes: Array<ProcessInfo & { rss: number }>;
}

function emptyKinds(): Record<ProcessKind, number> {
  return { server: 0, pglite: 0, esbuild: 0, other: 0 };
}

/** Samples the server and its descendants every `intervalMs` until stopped. */
export class MemorySampler {
  private timer: NodeJS.Timeout | undefined;
  private readonly known = new Map<number, ProcessInfo & { hwm: number; maxRss: number }>();
  /** Highest sampled sum of VmRSS over the whole tree, and of the server alone, kB. */
  peakTotal = 0;
  peakServer = 0;

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
    const processes: MemorySnapshot['processes'] = [];
    for (const pid of [this.serverPid, ...descendantsOf(this.serverPid)]) {
      let info = this.known.get(pid);
      if (!info) {
        const argv = cmdlineOf(pid);
        info = { pid, kind: pid === this.serverPid ? 'server' : kindOf(argv), command: argv.join(' '), hwm: 0, maxRss: 0 };
        this.known.set(pid, info);
      }
      const memory = memoryOf(pid);
      if (!memory) continue;
      info.hwm = Math.max(info.hwm, memory.hwm);
      info.maxRss = Math.max(info.maxRss, memory.rss);
      byKind[info.kind] += memory.rss;
      processes.push({ pid, kind: info.kind, command: info.command, rss: memory.rss });
    }
    const total = processes.reduce((sum, process) => sum + process.rss, 0);
    this.peakTotal = Math.max(this.peakTotal, total);
    this.peakServer = Math.max(this.peakServer, byKind.server);
    return { byKind, total, processes };
  }

  /** An average of a few readings, `gapMs` apart: the idle figure. */
  async settle(readings = 4, gapMs = 500): Promise<MemorySnapshot> {
    const snapshots: MemorySnapshot[] = [];
    for (let i = 0; i < readings; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      snapshots.push(this.sample());
    }
    const byKind = emptyKinds();
    for (const kind of Object.keys(byKind) as ProcessKind[]) {
      byKind[kind] = Math.round(snapshots.reduce((sum, snapshot) => sum + snapshot.byKind[kind], 0) / snapshots.length);
    }
    const total = Math.round(snapshots.reduce((sum, snapshot) => sum + snapshot.total, 0) / snapshots.length);
    return { byKind, total, processes: snapshots.at(-1)?.processes ?? [] };
  }

  /** Every process seen below the server, with its peak (VmHWM). */
  seen(): Array<ProcessInfo & { hwm: number; maxRss: number }> {
    return [...this.known.values()];
  }
}

export const toMB = (kB: number) => kB / MB;
