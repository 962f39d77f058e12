import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The Prometheus metrics of this process (issue 14), served on `/metrics` when TRACKER_METRICS=1. Each instance
 * reports its own; the scraper adds them up. Modules record into the instruments declared here; what needs a
 * module's data at scrape time (pool use, outbox depth) registers a collect callback with `observeAtScrape`.
 */
export const metricsRegistry = new Registry();

export const httpRequests = new Counter({
  name: 'tracker_http_requests_total', help: 'Requests answered, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const, registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'tracker_http_request_duration_seconds', help: 'Time to answer a request, by method and route template.',
  labelNames: ['method', 'route'] as const, buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [metricsRegistry],
});

/** Kept reads so far by kind: plain numbers, because a labelled counter's inc (label checks, a key built per
 * call) cost a Create Bug, which makes a dozen kept reads, about 2% of its CPU; the counter reads them at scrape. */
const keptReadCounts = new Map<string, { hit: number; miss: number }>();

export function countKeptRead(kind: string, outcome: 'hit' | 'miss'): void {
  let counts = keptReadCounts.get(kind);
  if (!counts) keptReadCounts.set(kind, (counts = { hit: 0, miss: 0 }));
  counts[outcome]++;
}

new Counter({
  name: 'tracker_kept_reads_total', help: 'Reads of values kept per instance under a mark, by kind and outcome (hit: served from memory).',
  labelNames: ['kind', 'outcome'] as const, registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [kind, counts] of keptReadCounts) {
      for (const outcome of ['hit', 'miss'] as const) if (counts[outcome]) this.inc({ kind, outcome }, counts[outcome]);
    }
  },
});

export const presumedCallerReruns = new Counter({
  name: 'tracker_presumed_caller_reruns_total',
  help: 'Writes that presumed their caller, failed their commit condition and ran again for the caller their credential names now.',
  registers: [metricsRegistry],
});

export const mailDeliveries = new Counter({
  name: 'tracker_mail_deliveries_total', help: 'Outgoing mail handed to the transport, by outcome (sent, failed).',
  labelNames: ['outcome'] as const, registers: [metricsRegistry],
});

/** A gauge whose value is read when Prometheus scrapes (values by label set). */
export function observeAtScrape<L extends string>(
  name: string, help: string, labelNames: readonly L[], read: () => Promise<ReadonlyArray<[Partial<Record<L, string>>, number]>>,
): void {
  metricsRegistry.removeSingleMetric(name);
  new Gauge({
    name, help, labelNames, registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const [labels, value] of await read()) this.set(labels, value);
    },
  });
}

/** A counter whose value is read when Prometheus scrapes (totals by label set), like observeAtScrape's gauges. */
export function countAtScrape<L extends string>(
  name: string, help: string, labelNames: readonly L[], read: () => ReadonlyArray<[Partial<Record<L, string>>, number]>,
): void {
  metricsRegistry.removeSingleMetric(name);
  new Counter({
    name, help, labelNames, registers: [metricsRegistry],
    collect() {
      this.reset();
      for (const [labels, value] of read()) if (value) this.inc(labels, value);
    },
  });
}
