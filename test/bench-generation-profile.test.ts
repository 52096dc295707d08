/**
 * scripts/bench/generation-profile.ts: a CPU profile of the CLI attributed to its steps, and the
 * generation rows of RESULTS.md, which explain a miss with the run's own largest steps.
 */
import { describe, expect, it } from 'vitest';
import { attributeProfile, OUTSIDE } from '../scripts/bench/generation-profile.js';
import { callbacksRows } from '../scripts/bench/report-callback-sections.js';
import { generationRows } from '../scripts/bench/report-generator-sections.js';
import type { BenchResults } from '../scripts/bench/results.js';

const BUNDLE = 'file:///repo/node_modules/.cache/im-openapi/generate-cli.cjs';
/** A profile from stacks (outermost first) and the µs each was sampled for. */
function profileOf(stacks: [string[], number][]) {
  const nodes = [{ id: 1, callFrame: { functionName: '(root)', url: '' }, children: [] as number[] }];
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  for (const [stack, us] of stacks) {
    let parent = nodes[0]!;
    for (const frame of stack) {
      const [fn, url] = frame.includes('@') ? frame.split('@') : [frame, BUNDLE];
      const node = { id: nodes.length + 1, callFrame: { functionName: fn!, url: url! }, children: [] };
      nodes.push(node);
      parent.children.push(node.id);
      parent = node;
    }
    samples.push(parent.id);
    timeDeltas.push(us);
  }
  return { nodes, samples, timeDeltas };
}

describe('the CLI profile by step', () => {
  const profile = attributeProfile(
    profileOf([
      [
        ['main', 'generate', 'specModel', 'parseSpecWithWarnings', 'readSpecDocument', 'parse@node_modules/yaml/x.js'],
        3000,
      ],
      [['main', 'generate', 'specModel', 'parseSpecWithWarnings', 'checkSchemas'], 2000],
      [['main', 'generate', 'emitValidators', 'compile@node_modules/ajv/x.js'], 5000],
      [['main', 'runGate', 'buildChangeReport', 'specModel', 'parseSpecWithWarnings', 'readSpecDocument'], 1000],
      [['(garbage collector)@'], 500],
      [['(idle)@'], 9000],
      [['require@node:internal/modules/cjs/loader'], 1500],
      // a function of another file named like a step is not that step
      [['main', 'generate', 'emitFuncsAndResources', 'build@node_modules/ts-morph/x.js'], 700],
    ]),
  );
  const ms = (name: string) => profile.steps.find((s) => s.name.startsWith(name))!.ms;

  it('gives each sample to the innermost step, and everything under the change report to it', () => {
    expect(ms('parse YAML')).toBe(3);
    expect(ms('check the spec')).toBe(2);
    expect(ms('emit validators')).toBe(5);
    expect(ms('change report')).toBe(1);
    expect(ms('garbage collection')).toBe(0.5);
    expect(ms('emit operations code')).toBe(0.7);
    expect(ms('bundle the generator')).toBe(0);
    expect(ms(OUTSIDE)).toBe(1.5);
  });

  it('leaves idle time out of the total', () => {
    expect(profile.totalMs).toBeCloseTo(13.7, 6);
  });

  it('a missed generation row names the largest steps of its own run', () => {
    const tool = (wallMs: number) => ({
      name: 'x',
      command: 'x',
      emits: 'x',
      wallMs: [wallMs],
      cpuMs: [wallMs],
      maxRssKb: [],
      output: { files: 1, lines: 100, bytes: 1 },
    });
    const results = {
      generation: {
        runs: 1,
        tools: [tool(1000), tool(900), { ...tool(1500), output: { files: 1, lines: 10, bytes: 1 } }, tool(1400)],
        phases: undefined,
        cliProfiles: { cold: profile, warm: profile },
        heyOut: '',
        otsOut: '',
      },
    } as unknown as BenchResults;
    const [coldRow, warmRow] = generationRows(results);
    expect(coldRow!.pass).toBe(true);
    expect(coldRow!.measured).not.toContain('Why');
    expect(warmRow!.pass).toBe(false);
    expect(warmRow!.measured).toContain('emit validators (Ajv standalone) 5 ms (36 %), parse YAML 3 ms (22 %)');
  });
});

describe('a missed verify row explains itself by its steps', () => {
  const run = (oursCpuNs: number) => ({
    bytes: 534,
    iterations: 1,
    rounds: 1,
    floorNs: 5000,
    oursNs: oursCpuNs,
    floorCpuNs: 5000,
    oursCpuNs,
    floorRuns: [],
    oursRuns: [],
    floorCpuRuns: [],
    oursCpuRuns: [],
    sink: 0,
    steps: [
      ['floor: createHmac + update × 2 + digest', 2500],
      ['floor: Buffer.from(hex) + timingSafeEqual', 400],
      ['floor: toString + JSON.parse', 2100],
      ['ours: read the X-IM-* headers (readCallbackHeaders)', 200],
      ['ours: parse X-IM-Signature (parseSignatureHeader)', 300],
      ['ours: HMAC + constant-time compare (matchSignature)', 2200],
      ['ours: strict UTF-8 decode + JSON.parse', 2100],
      ['ours: verifyCallbackSync (all of it, no promise)', 5500],
    ].map(([name, cpuNs]) => ({ name, ns: cpuNs, cpuNs })),
  });

  it('names the rest, the promise and the synchronous ratio, each from the run', () => {
    const [miss, pass] = callbacksRows({ callbacks: { events1: run(6300), events100: run(5900) } } as never);
    expect(miss!.pass).toBe(false);
    expect(miss!.measured).toContain('the rest of the synchronous checks 0.70 µs');
    expect(miss!.measured).toContain('the promise and await 0.80 µs');
    expect(miss!.measured).toContain('(verifyCallbackSync, the same checks) 5.50 µs = 1.10× the floor');
    expect(pass!.pass).toBe(true);
    expect(pass!.measured).not.toContain('Why');
  });
});
