// Counters and histograms for the hot path, served by a prom-client registry. prom-client's own
// find their series by hashing the label object on every observation (sorting its keys, building a
// string); these hand out a series per label set once, and an observation is then an increment.
// They print as prom-client's do (same names, labels, buckets and text format).
import type { Metric, Registry } from 'prom-client';

type Labels = Readonly<Record<string, string | number>>;
/** One line of the printed metric, as the registry reads it from get(). */
interface SeriesValue {
  metricName?: string;
  labels: Labels;
  value: number;
}

/** prom-client's default buckets (seconds), as its Histogram uses when given none. */
const DEFAULT_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

abstract class SeriesMetric<S extends { labels: Labels }> {
  abstract readonly type: 'counter' | 'histogram';
  readonly aggregator = 'sum' as const;
  protected readonly series = new Map<string, S>();

  constructor(
    readonly name: string,
    readonly help: string,
    registry: Registry,
  ) {
    // The registry prints any object with a name and get(); prom-client's types list its own classes only.
    registry.registerMetric(this as unknown as Metric);
  }

  protected abstract make(labels: Labels): S;
  protected abstract values(series: S): SeriesValue[];

  /** The series of one label set; `key` names the set (callers keep it stable and cheap). */
  of(key: string, labels: () => Labels): S {
    let found = this.series.get(key);
    if (!found) this.series.set(key, (found = this.make(labels())));
    return found;
  }

  get(): Promise<{ name: string; help: string; type: string; aggregator: 'sum'; values: SeriesValue[] }> {
    const values = [...this.series.values()].flatMap((s) => this.values(s));
    return Promise.resolve({ name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values });
  }

  reset(): void {
    this.series.clear();
  }
}

export interface CounterSeries {
  readonly labels: Labels;
  value: number;
}

export class SeriesCounter extends SeriesMetric<CounterSeries> {
  readonly type = 'counter' as const;
  protected make(labels: Labels): CounterSeries {
    return { labels, value: 0 };
  }
  protected values(s: CounterSeries): SeriesValue[] {
    return [{ labels: s.labels, value: s.value }];
  }
}

export interface HistogramSeries {
  readonly labels: Labels;
  /** Observations per bucket (not cumulative); the last is above every bound. */
  readonly counts: number[];
  sum: number;
  count: number;
}

export class SeriesHistogram extends SeriesMetric<HistogramSeries> {
  readonly type = 'histogram' as const;

  constructor(
    name: string,
    help: string,
    registry: Registry,
    private readonly buckets: readonly number[] = DEFAULT_BUCKETS,
  ) {
    super(name, help, registry);
  }

  protected make(labels: Labels): HistogramSeries {
    return { labels, counts: new Array<number>(this.buckets.length + 1).fill(0), sum: 0, count: 0 };
  }

  observe(s: HistogramSeries, value: number): void {
    let i = 0;
    while (i < this.buckets.length && value > this.buckets[i]!) i++;
    s.counts[i]!++;
    s.sum += value;
    s.count++;
  }

  protected values(s: HistogramSeries): SeriesValue[] {
    const out: SeriesValue[] = [];
    let cumulative = 0;
    this.buckets.forEach((le, i) => {
      cumulative += s.counts[i]!;
      out.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le }, value: cumulative });
    });
    out.push({ metricName: `${this.name}_bucket`, labels: { ...s.labels, le: '+Inf' }, value: s.count });
    out.push({ metricName: `${this.name}_sum`, labels: s.labels, value: s.sum });
    out.push({ metricName: `${this.name}_count`, labels: s.labels, value: s.count });
    return out;
  }
}
