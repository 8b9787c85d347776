// OTEL_TRACES_SAMPLER (+ _ARG) as the SDK's samplers; the names and default are the specification's.
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, type Sampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace';
import type { TracingConfig } from '../../../config';

export function samplerOf({ sampler, samplerRatio }: Pick<TracingConfig, 'sampler' | 'samplerRatio'>): Sampler {
  const root = sampler.endsWith('always_on')
    ? new AlwaysOnSampler()
    : sampler.endsWith('always_off')
      ? new AlwaysOffSampler()
      : new TraceIdRatioBasedSampler(samplerRatio);
  return sampler.startsWith('parentbased_') ? new ParentBasedSampler({ root }) : root;
}
