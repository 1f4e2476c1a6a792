import { describe, expect, it } from 'vitest';
import { addGauge, addHistogram, MetricsRegistry, processRegistry } from './prometheus.ts';

describe('the Prometheus text format', () => {
  it('writes each family with its help and type, gauges read at each scrape, labels escaped', async () => {
    const registry = new MetricsRegistry();
    let depth = 3;
    addGauge(registry, { name: 'queue_depth', help: 'Tâches\nen attente \\ file', collect: () => depth });
    addGauge(registry, {
      name: 'jobs',
      help: 'Par type',
      collect: async () => [
        { labels: { kind: 'mail', state: 'en "échec"' }, value: 2 },
        { labels: { kind: 'backup', state: 'a\\b\nc' }, value: Number.POSITIVE_INFINITY },
      ],
    });
    expect(await MetricsRegistry.render([registry])).toBe(
      [
        '# HELP queue_depth Tâches\\nen attente \\\\ file',
        '# TYPE queue_depth gauge',
        'queue_depth 3',
        '# HELP jobs Par type',
        '# TYPE jobs gauge',
        'jobs{kind="mail",state="en \\"échec\\""} 2',
        'jobs{kind="backup",state="a\\\\b\\nc"} +Inf',
        '',
      ].join('\n'),
    );
    depth = 4;
    expect(await MetricsRegistry.render([registry])).toContain('\nqueue_depth 4\n');
  });

  it('counts a histogram cumulatively per set of labels, with +Inf, sum and count', async () => {
    const registry = new MetricsRegistry();
    const durations = addHistogram(registry, { name: 'd_seconds', help: 'Durées', buckets: [0.5, 0.1, 1] });
    const get = { method: 'GET' };
    for (const value of [0.05, 0.1, 0.7, 3]) durations.observe(get, value);
    durations.observe({ method: 'POST' }, 0.2);
    const text = await MetricsRegistry.render([registry]);
    expect(text).toContain(
      [
        '# TYPE d_seconds histogram',
        'd_seconds_bucket{method="GET",le="0.1"} 2',
        'd_seconds_bucket{method="GET",le="0.5"} 2',
        'd_seconds_bucket{method="GET",le="1"} 3',
        'd_seconds_bucket{method="GET",le="+Inf"} 4',
        'd_seconds_sum{method="GET"} 3.85',
        'd_seconds_count{method="GET"} 4',
        'd_seconds_bucket{method="POST",le="0.1"} 0',
        'd_seconds_bucket{method="POST",le="0.5"} 1',
      ].join('\n'),
    );
  });

  it('refuses a second family of the same name', () => {
    const registry = new MetricsRegistry();
    addGauge(registry, { name: 'x', help: 'x', collect: () => 1 });
    expect(() => addGauge(registry, { name: 'x', help: 'x', collect: () => 2 })).toThrow(/x/);
  });

  it('describes the process under the names dashboards know, and is one registry for the process', async () => {
    expect(processRegistry()).toBe(processRegistry());
    const text = await MetricsRegistry.render([processRegistry()]);
    expect(text).toContain('# TYPE process_cpu_seconds_total counter');
    const rss = Number(/\nprocess_resident_memory_bytes (\d+)\n/.exec(text)?.[1]);
    expect(rss).toBeGreaterThan(10 * 1024 * 1024);
    expect(text).toMatch(/\nnodejs_eventloop_lag_p99_seconds [\d.e-]+\n/);
    expect(text).not.toMatch(/NaN/);
  });
});
