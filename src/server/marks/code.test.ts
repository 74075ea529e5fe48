import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  accuse,
  agreementsToAccuse,
  logBinomialTail,
  minimumDecidedSegments,
  sessionSequence,
  type Candidate,
  type Decision,
} from './code';

const SEGMENTS = 200; // a 20-minute video in 6 s segments

function candidates(secret: Buffer, count: number, prefix = 'S'): Candidate[] {
  return Array.from({ length: count }, (_, i) => {
    const code = `${prefix}${i.toString(36).toUpperCase().padStart(7, '0')}`;
    return { code, sequence: sessionSequence(secret, code, SEGMENTS) };
  });
}

const seeded = (seed: number) => () => {
  // mulberry32: a reproducible stream for the simulations.
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

describe('sessionSequence', () => {
  it('is fixed by the video secret and the code, and differs between sessions and videos', () => {
    const secret = randomBytes(32);
    const a = sessionSequence(secret, '7K3MQ9XD', SEGMENTS);
    expect(sessionSequence(secret, '7K3MQ9XD', SEGMENTS)).toEqual(a);
    expect(sessionSequence(secret, '7K3MQ9XE', SEGMENTS)).not.toEqual(a);
    expect(sessionSequence(randomBytes(32), '7K3MQ9XD', SEGMENTS)).not.toEqual(a);
    // Longer videos extend the same sequence.
    expect(sessionSequence(secret, '7K3MQ9XD', 600).subarray(0, SEGMENTS)).toEqual(a);
    const ones = a.reduce((s, b) => s + b, 0);
    expect(ones).toBeGreaterThan(70); // p = 1/2: about half are B
    expect(ones).toBeLessThan(130);
  });
});

describe('the threshold', () => {
  it('is the exact binomial tail at eps / n', () => {
    expect(Math.exp(logBinomialTail(10, 10))).toBeCloseTo(1 / 1024, 10);
    expect(Math.exp(logBinomialTail(10, 8))).toBeCloseTo(56 / 1024, 10);
    expect(minimumDecidedSegments()).toBe(34); // 2^-34 <= 1e-6 / 10,000
    expect(agreementsToAccuse(20)).toBe(Infinity); // a 2-minute excerpt cannot accuse anyone
    expect(agreementsToAccuse(34)).toBe(34);
    const k = agreementsToAccuse(200);
    expect(Math.exp(logBinomialTail(200, k))).toBeLessThanOrEqual(1e-10);
    expect(Math.exp(logBinomialTail(200, k - 1))).toBeGreaterThan(1e-10);
  });
});

describe('accuse', () => {
  const secret = createHash('sha256').update('accuse').digest();
  const pool = candidates(secret, 10_000);

  it(
    'names the one leaker from a clean copy, with erasures, and nobody from too little',
    { timeout: 30_000 },
    () => {
      const leaker = pool[1234]!;
      const decisions: Decision[] = Array.from(leaker.sequence.subarray(50, 150)) as Decision[];
      let result = accuse(decisions, pool, { first: 50 });
      expect(result.accused.map((a) => a.code)).toEqual([leaker.code]);
      expect(result.accused[0]!.agreements).toBe(100);

      // A third of the segments undecided and a tenth decided wrongly: still only the leaker.
      const noisy = decisions.map((d, i) =>
        i % 3 === 0 ? undefined : i % 10 === 1 ? ((1 - d!) as Decision) : d,
      );
      result = accuse(noisy, pool, { first: 50 });
      expect(result.accused.map((a) => a.code)).toEqual([leaker.code]);
      expect(result.decided).toBe(66);

      // 20 segments (2 minutes) cannot reach 1e-10 per session: no accusation, not a guess.
      result = accuse(decisions.slice(0, 20), pool, { first: 50 });
      expect(result.accused).toEqual([]);
      expect(result.best?.code).toBe(leaker.code);
    },
  );

  it('names one of two colluders splicing alternately, and never an innocent', () => {
    const random = seeded(21);
    let named = 0;
    const trials = 60;
    for (let trial = 0; trial < trials; trial++) {
      // Fixed secrets: the simulation gives the same answer on every run.
      const trialSecret = createHash('sha256').update(`collusion trial ${trial}`).digest();
      const [one, two] = candidates(trialSecret, 2, `C${trial}`);
      const innocents = candidates(trialSecret, 2_000, `I${trial}`);
      // Segment by segment from one then the other; 5% of segments undecided.
      const decisions: Decision[] = Array.from({ length: SEGMENTS }, (_, i) =>
        random() < 0.05 ? undefined : ((i % 2 ? two!.sequence[i] : one!.sequence[i]) as Decision),
      );
      const result = accuse(decisions, [one!, two!, ...innocents]);
      const codes = result.accused.map((a) => a.code);
      expect(codes.every((c) => c === one!.code || c === two!.code)).toBe(true);
      if (codes.length) named++;
    }
    expect(named / trials).toBeGreaterThanOrEqual(0.9);
  }, 60_000); // ~3 s alone; a busy machine runs it slower

  it('accuses nobody from a copy no session watched (noise, or all A)', () => {
    const random = seeded(7);
    const noise: Decision[] = Array.from({ length: SEGMENTS }, () => (random() < 0.5 ? 0 : 1));
    expect(accuse(noise, pool).accused).toEqual([]);
    expect(accuse(new Array<Decision>(SEGMENTS).fill(0), pool).accused).toEqual([]);
    expect(accuse(new Array<Decision>(SEGMENTS).fill(undefined), pool).accused).toEqual([]);
  });
});
