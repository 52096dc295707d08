/** The shape of a bench run's results (written as JSON with --json, rendered by report.ts); its own file so that the report and the sections need not import the runner. */
import type { CallbacksResult } from './callbacks.js';
import type { ColdStartResult } from './cold-start.js';
import type { GenerationResult } from './generation.js';
import type { InboxResult } from './inbox.js';
import type { machine } from './lib.js';
import type { PerCallResult } from './per-call.js';
import type { QuotaResult } from './quota.js';
import type { ScaleResult } from './scale.js';
import type { SimulatorResult } from './simulator.js';
import type { SizeResult } from './size.js';
import type { TestSuiteResult } from './test-suite.js';
import type { TypecheckResult } from './typecheck.js';
import type { UploadResult } from './upload.js';

export interface Counts {
  generationRuns: number;
  scale: { factors: number[]; runs: number };
  perCall: { count: number; warmup: number; reps: number; concurrencies: number[]; profile: boolean };
  coldRuns: number;
  typecheckRuns: number;
  callbacks: { rounds: number; iter1: number; iter100: number };
  upload: { total: number; partSize: number; concurrency: number; runs: number };
  quota: { quotaPerSecond: number; warmupMs: number; measureMs: number; runs: number };
  inbox: { events: number; batch: number; concurrency: number; rounds: number };
  simulator: { runs: number; timeScale: number };
}

export interface BenchResults {
  smoke: boolean;
  startedAt: string;
  durationS: number;
  command: string;
  machine: ReturnType<typeof machine>;
  versions: Record<string, string>;
  counts: Counts;
  build: { ms: number };
  loadBySection: Record<string, [number, number]>;
  generation?: GenerationResult;
  scale?: ScaleResult;
  perCall?: PerCallResult;
  coldStart?: ColdStartResult;
  size?: SizeResult;
  typecheck?: TypecheckResult;
  callbacks?: CallbacksResult;
  upload?: UploadResult;
  quota?: QuotaResult;
  inbox?: InboxResult;
  simulator?: SimulatorResult;
  testSuite?: TestSuiteResult;
}
