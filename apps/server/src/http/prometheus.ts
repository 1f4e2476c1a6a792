import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * The Prometheus text format (0.0.4) for the few kinds of figures /metrics serves: gauges read at scrape time and one
 * labelled histogram. Written here rather than taken from prom-client and its OpenTelemetry dependency: one
 * dependency fewer for what these 200 lines do (it saved 0-1 MB at rest, less than hoped: docs/performance.md).
 */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type Labels = Record<string, string>;
export type Sample = { labels: Labels; value: number };

interface Family {
  name: string;
  help: string;
  type: 'counter' | 'gauge' | 'histogram';
  /** Sample lines without the family's comments: `name{labels} value`. */
  lines(): Promise<string[]>;
}

const escapeHelp = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
const escapeLabel = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', '\\n');

function formatLabels(labels: Labels): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

/** `+Inf`, `-Inf` and `NaN` as Prometheus spells them; numbers as JavaScript prints them. */
function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

const sampleLine = (name: string, labels: Labels, value: number) => `${name}${formatLabels(labels)} ${formatValue(value)}`;

export class MetricsRegistry {
  readonly #families = new Map<string, Family>();

  add(family: Family): void {
    if (this.#families.has(family.name)) throw new Error(`Métrique déjà enregistrée : ${family.name}`);
    this.#families.set(family.name, family);
  }

  /** The text answer of every family of `registries`, in the order they were added. */
  static async render(registries: MetricsRegistry[]): Promise<string> {
    const blocks: string[] = [];
    for (const registry of registries) {
      for (const family of registry.#families.values()) {
        const lines = await family.lines();
        blocks.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`, ...lines);
      }
    }
    return `${blocks.join('\n')}\n`;
  }
}

export interface GaugeDefinition {
  name: string;
  help: string;
  /** Read at each scrape: one number, or one value per set of labels. */
  collect: () => number | Sample[] | Promise<number | Sample[]>;
  /** `counter` for a total that only grows (CPU seconds). */
  type?: 'counter' | 'gauge';
}

/** A figure read when Prometheus scrapes, nothing kept in between. */
export function addGauge(registry: MetricsRegistry, { name, help, collect, type = 'gauge' }: GaugeDefinition): void {
  registry.add({
    name,
    help,
    type,
    async lines() {
      const value = await collect();
      if (typeof value === 'number') return [sampleLine(name, {}, value)];
      return value.map((sample) => sampleLine(name, sample.labels, sample.value));
    },
  });
}

export interface Histogram {
  observe(labels: Labels, value: number): void;
}

/** Counts of observations at or under each bound, per set of labels, with their sum and count. */
export function addHistogram(
  registry: MetricsRegistry,
  { name, help, buckets }: { name: string; help: string; buckets: number[] },
): Histogram {
  const bounds = [...buckets].sort((a, b) => a - b);
  const series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  registry.add({
    name,
    help,
    type: 'histogram',
    async lines() {
      return [...series.values()].flatMap(({ labels, counts, sum, count }) => {
        let cumulated = 0;
        const lines = bounds.map((bound, index) => {
          cumulated += counts[index] ?? 0;
          return sampleLine(`${name}_bucket`, { ...labels, le: formatValue(bound) }, cumulated);
        });
        lines.push(sampleLine(`${name}_bucket`, { ...labels, le: '+Inf' }, count));
        lines.push(sampleLine(`${name}_sum`, labels, sum), sampleLine(`${name}_count`, labels, count));
        return lines;
      });
    },
  });
  return {
    observe(labels, value) {
      const key = JSON.stringify(labels);
      let entry = series.get(key);
      if (!entry) {
        entry = { labels, counts: bounds.map(() => 0), sum: 0, count: 0 };
        series.set(key, entry);
      }
      const index = bounds.findIndex((bound) => value <= bound);
      if (index !== -1) entry.counts[index] = (entry.counts[index] ?? 0) + 1;
      entry.sum += value;
      entry.count += 1;
    },
  };
}

let processFigures: MetricsRegistry | undefined;

/**
 * The process: CPU, memory, event-loop delay, live resources, start time (the names prom-client's default metrics
 * use, so dashboards built on them keep working). One registry for the process however many apps it builds (tests
 * build dozens); the event-loop monitor starts with the first scrape.
 */
export function processRegistry(): MetricsRegistry {
  if (processFigures) return processFigures;
  const registry = new MetricsRegistry();
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  const seconds = (nanoseconds: number) => nanoseconds / 1e9;
  const startTime = Math.round(Date.now() / 1000 - process.uptime());
  const figures: GaugeDefinition[] = [
    {
      name: 'process_cpu_user_seconds_total',
      help: 'Temps CPU utilisateur, en secondes',
      type: 'counter',
      collect: () => process.cpuUsage().user / 1e6,
    },
    {
      name: 'process_cpu_system_seconds_total',
      help: 'Temps CPU système, en secondes',
      type: 'counter',
      collect: () => process.cpuUsage().system / 1e6,
    },
    {
      name: 'process_cpu_seconds_total',
      help: 'Temps CPU total, en secondes',
      type: 'counter',
      collect: () => {
        const { user, system } = process.cpuUsage();
        return (user + system) / 1e6;
      },
    },
    { name: 'process_start_time_seconds', help: 'Démarrage du processus, en secondes depuis 1970', collect: () => startTime },
    { name: 'process_resident_memory_bytes', help: 'Mémoire résidente, en octets', collect: () => process.memoryUsage.rss() },
    { name: 'nodejs_heap_size_total_bytes', help: 'Tas V8 réservé, en octets', collect: () => process.memoryUsage().heapTotal },
    { name: 'nodejs_heap_size_used_bytes', help: 'Tas V8 utilisé, en octets', collect: () => process.memoryUsage().heapUsed },
    {
      name: 'nodejs_external_memory_bytes',
      help: 'Mémoire hors tas tenue par des objets JavaScript, en octets',
      collect: () => process.memoryUsage().external,
    },
    {
      name: 'nodejs_eventloop_lag_mean_seconds',
      help: "Retard moyen de la boucle d'événements, en secondes",
      collect: () => seconds(delay.mean || 0),
    },
    {
      name: 'nodejs_eventloop_lag_p99_seconds',
      help: "Retard de la boucle d'événements, 99e centile, en secondes",
      collect: () => seconds(delay.percentile(99)),
    },
    {
      name: 'nodejs_eventloop_lag_max_seconds',
      help: "Plus grand retard de la boucle d'événements, en secondes",
      collect: () => seconds(delay.max),
    },
    {
      name: 'nodejs_active_resources_total',
      help: 'Ressources actives (sockets, minuteries, fichiers) qui gardent le processus en vie',
      collect: () => process.getActiveResourcesInfo().length,
    },
  ];
  for (const figure of figures) addGauge(registry, figure);
  processFigures = registry;
  return registry;
}
