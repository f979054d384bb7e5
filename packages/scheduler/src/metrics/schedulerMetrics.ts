import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { PluginMetrics } from '../framework/interfaces';
import type { PendingPods } from '../queue/schedulingQueue';

export type AttemptResult = 'scheduled' | 'unschedulable' | 'error';

/** The scheduler's metrics (Kubernetes' names), registered on the daemon's /metrics registry. */
export class SchedulerMetrics implements PluginMetrics {
  readonly scheduleAttempts: Counter<'result' | 'profile'>;
  readonly preemptionAttempts: Counter;
  readonly preemptionVictimsHistogram: Histogram;
  readonly e2eSchedulingDuration: Histogram<'result' | 'profile'>;
  readonly pendingPods: Gauge<'queue'>;

  constructor(registry: Registry, pending: () => PendingPods) {
    this.scheduleAttempts = new Counter({
      name: 'scheduler_schedule_attempts_total',
      help: 'Number of attempts to schedule pods, by the result. unschedulable means a pod could not be scheduled, while error means an internal scheduler problem.',
      labelNames: ['result', 'profile'],
      registers: [registry],
    });
    this.e2eSchedulingDuration = new Histogram({
      name: 'scheduler_e2e_scheduling_duration_seconds',
      help: 'E2e scheduling latency in seconds (scheduling algorithm + binding)',
      labelNames: ['result', 'profile'],
      buckets: Array.from({ length: 15 }, (_, i) => 0.001 * 2 ** i),
      registers: [registry],
    });
    this.preemptionAttempts = new Counter({
      name: 'scheduler_preemption_attempts_total',
      help: 'Total preemption attempts in the cluster till now',
      registers: [registry],
    });
    this.preemptionVictimsHistogram = new Histogram({
      name: 'scheduler_preemption_victims',
      help: 'Number of selected preemption victims',
      // Kubernetes' ExponentialBuckets(1, 2, 7).
      buckets: Array.from({ length: 7 }, (_, i) => 2 ** i),
      registers: [registry],
    });
    this.pendingPods = new Gauge({
      name: 'scheduler_pending_pods',
      help: "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number of pods in backoffQ; 'unschedulable' means number of pods in unschedulableQ.",
      labelNames: ['queue'],
      registers: [registry],
      collect() {
        const p = pending();
        this.set({ queue: 'active' }, p.active);
        this.set({ queue: 'backoff' }, p.backoff);
        this.set({ queue: 'unschedulable' }, p.unschedulable);
      },
    });
  }

  /** Records one attempt and its end-to-end duration in seconds. */
  observeAttempt(result: AttemptResult, profile: string, seconds: number): void {
    this.scheduleAttempts.inc({ result, profile });
    this.e2eSchedulingDuration.observe({ result, profile }, seconds);
  }

  preemptionAttempted(): void {
    this.preemptionAttempts.inc();
  }

  preemptionVictims(count: number): void {
    this.preemptionVictimsHistogram.observe(count);
  }
}
