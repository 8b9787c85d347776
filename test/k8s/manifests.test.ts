// deploy/k8s/ validated offline against the Kubernetes schemas (kubernetes-models: each object
// checked by its kind's JSON schema, as the API server would), and held to the settings
// `npm run test:deploy` and compose.yaml run with (deploy/gateway.env): probes on /health and
// /ready, a preStop for the drain inside a grace period longer than SHUTDOWN_TIMEOUT_MS, resources,
// and the metrics port never exposed by the Service.
import { readdirSync, readFileSync } from 'node:fs';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readEnvFile } from '../deploy/processes';

const DIR = new URL('../../deploy/k8s/', import.meta.url);
const MODELS = { Deployment, Service, ConfigMap, PodDisruptionBudget, HorizontalPodAutoscaler } as const;
type Kind = keyof typeof MODELS;
interface Manifest {
  apiVersion: string;
  kind: Kind;
  metadata: { name: string };
  [field: string]: unknown;
}

const manifests: Manifest[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((f) => parseAllDocuments(readFileSync(new URL(f, DIR), 'utf8')).map((d) => d.toJS() as Manifest));

const find = (kind: Kind, name: string) => manifests.find((m) => m.kind === kind && m.metadata.name === name)!;
// The gateway's objects, typed as their models read them.
const deployment = () => new Deployment(find('Deployment', 'im-gateway') as never);
const container = () => deployment().spec!.template.spec!.containers[0]!;

describe('deploy/k8s/', () => {
  it('holds the gateway Deployment, Service, ConfigMap, PodDisruptionBudget, HorizontalPodAutoscaler and Redis', () => {
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual([
      'ConfigMap/im-gateway',
      'Deployment/im-gateway',
      'Deployment/im-gateway-redis',
      'HorizontalPodAutoscaler/im-gateway',
      'PodDisruptionBudget/im-gateway',
      'Service/im-gateway',
      'Service/im-gateway-redis',
    ]);
  });

  it('validates every object against its kind’s Kubernetes schema', () => {
    for (const m of manifests) {
      const Model = MODELS[m.kind] as unknown as new (data: unknown) => { validate(): void };
      expect(() => new Model(m).validate(), `${m.kind}/${m.metadata.name}`).not.toThrow();
    }
  });

  it('would refuse an object the API server refuses (the validation is real)', () => {
    const broken = structuredClone(find('Deployment', 'im-gateway')) as unknown as { spec: { replicas: unknown } };
    broken.spec.replicas = 'two';
    expect(() => new Deployment(broken as never).validate()).toThrow(/replicas/);
  });

  it('probes /health for liveness and /ready for readiness, drains with a preStop inside the grace period, and sets resources', () => {
    const c = container();
    expect(c.livenessProbe?.httpGet?.path).toBe('/health');
    expect(c.readinessProbe?.httpGet?.path).toBe('/ready');
    const preStop = c.lifecycle?.preStop?.exec?.command;
    expect(preStop?.[0]).toBe('sleep');
    const shutdownMs = Number(readEnvFile(new URL('../../deploy/gateway.env', import.meta.url).pathname).SHUTDOWN_TIMEOUT_MS);
    const grace = deployment().spec!.template.spec!.terminationGracePeriodSeconds!;
    expect(grace * 1000).toBeGreaterThan(shutdownMs + Number(preStop![1]) * 1000);
    expect(c.resources?.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(c.resources?.limits?.memory).toBeDefined();
  });

  it('runs with deploy/gateway.env’s settings (those of compose.yaml and npm run test:deploy)', () => {
    const shared = readEnvFile(new URL('../../deploy/gateway.env', import.meta.url).pathname);
    const config = new ConfigMap(find('ConfigMap', 'im-gateway') as never).data!;
    // TRUSTED_PROXIES names the proxy of each arrangement: compose's nginx, the cluster's ingress.
    const { TRUSTED_PROXIES: _proxies, ...same } = shared;
    expect(config).toMatchObject(same);
    expect(config.TRUSTED_PROXIES).toBeTruthy();
    expect(container().envFrom?.[0]?.configMapRef?.name).toBe('im-gateway');
  });

  it('exposes the public port in the Service, never the metrics port', () => {
    const metricsPort = Number(readEnvFile(new URL('../../deploy/gateway.env', import.meta.url).pathname).METRICS_PORT);
    expect(container().ports?.map((p) => p.containerPort)).toContain(metricsPort);
    const service = new Service(find('Service', 'im-gateway') as never);
    const exposed = service.spec!.ports!.map((p) => p.targetPort);
    expect(exposed).toEqual(['http']);
    expect(container().ports?.find((p) => p.name === 'http')?.containerPort).toBe(4000);
  });
});
