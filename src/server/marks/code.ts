import { createHmac } from 'node:crypto';

/**
 * The fingerprinting code behind forensic A/B marks (docs/FORENSIC.md).
 *
 * A Tardos-style probabilistic code: session j's symbol for segment i is a keyed coin
 * X_ji = HMAC(video secret, code, i) with bias p_i. For collusions of at most c = 2 the optimal
 * discrete bias distribution (Nuida et al., 2009) is the single point p = 1/2, and the symmetric
 * Tardos score (Skoric et al., 2008) then reduces to +1 per agreeing segment and -1 per
 * disagreeing one; undecided segments (erasures) score 0.
 *
 * The threshold comes from the exact distribution an innocent's score has whatever the pirate
 * did: an innocent's symbols are independent of the leaked copy, so its agreements over d decided
 * segments are Binomial(d, 1/2). A session is accused only when P(Bin(d, 1/2) >= agreements) is at
 * most eps / n, so any one innocent is accused with probability <= eps / n and any of the n
 * sessions of the video with probability <= eps (union bound), even when segments were decided
 * wrongly. Two colluders who take every segment from one of them (splicing) agree with each
 * other on about half the segments and both score +1 there: S1 + S2 = 2 * agreements(X1, X2), so
 * one of them scores at least about d / 2.
 */

/** Sessions one video is designed for, and the chance of accusing any innocent among them. */
export const DESIGN_SESSIONS = 10_000;
export const DESIGN_FALSE_ACCUSATION = 1e-6;
/** Collusion size the bias distribution is optimal for (larger collusions: see docs/FORENSIC.md). */
export const DESIGN_COLLUSION = 2;

export type Bit = 0 | 1;
/** A decided segment (0 = variant A, 1 = B) or an erasure. */
export type Decision = Bit | undefined;

const BITS_PER_BLOCK = 256;

/** The A/B sequence of session `code` for segments [0, segments): 0 = variant A, 1 = variant B. */
export function sessionSequence(secret: Buffer, code: string, segments: number): Uint8Array {
  const out = new Uint8Array(segments);
  for (let block = 0; block * BITS_PER_BLOCK < segments; block++) {
    const bytes = createHmac('sha256', secret).update(`lectern forensic sequence:${code}:${block}`).digest();
    for (let bit = 0; bit < BITS_PER_BLOCK; bit++) {
      const i = block * BITS_PER_BLOCK + bit;
      if (i >= segments) break;
      out[i] = (bytes[bit >> 3]! >> (bit & 7)) & 1;
    }
  }
  return out;
}

/** ln P(Bin(d, 1/2) >= k), exactly (log-space sum of the tail). */
export function logBinomialTail(d: number, k: number): number {
  if (k <= 0) return 0;
  if (k > d) return -Infinity;
  // log C(d, j) by lgamma-free recurrence: C(d, j+1) = C(d, j) * (d - j) / (j + 1).
  let logC = 0;
  const terms: number[] = [];
  for (let j = 0; j <= d; j++) {
    if (j >= k) terms.push(logC);
    logC += Math.log(d - j) - Math.log(j + 1);
  }
  const max = Math.max(...terms);
  const sum = terms.reduce((s, t) => s + Math.exp(t - max), 0);
  return max + Math.log(sum) - d * Math.LN2;
}

/**
 * The fewest agreements out of `decided` segments that accuse a session: the smallest k with
 * P(Bin(decided, 1/2) >= k) <= eps / n. Infinity when no k is rare enough (too short an excerpt).
 */
export function agreementsToAccuse(
  decided: number,
  sessions = DESIGN_SESSIONS,
  eps = DESIGN_FALSE_ACCUSATION,
): number {
  const limit = Math.log(eps / sessions);
  for (let k = Math.ceil(decided / 2); k <= decided; k++) {
    if (logBinomialTail(decided, k) <= limit) return k;
  }
  return Infinity;
}

/** The fewest decided segments that can accuse anyone at all (all of them agreeing). */
export function minimumDecidedSegments(sessions = DESIGN_SESSIONS, eps = DESIGN_FALSE_ACCUSATION): number {
  return Math.ceil(Math.log2(sessions / eps));
}

export interface Candidate {
  code: string;
  sequence: Uint8Array;
}

export interface Accusation {
  code: string;
  /** Symmetric Tardos score: agreements - disagreements over the decided segments. */
  score: number;
  agreements: number;
  decided: number;
  /** ln of the chance an innocent session agrees this often (the smaller, the surer). */
  logInnocentChance: number;
}

export interface AccuseResult {
  accused: Accusation[];
  decided: number;
  /** Agreements needed out of `decided` (Infinity: the excerpt cannot accuse anyone). */
  threshold: number;
  /** The best-scoring session even when not accused (for "closest, but below the threshold"). */
  best: Accusation | undefined;
}

/**
 * Scores every candidate session against the decisions (`decisions[i]` for segment `first + i`)
 * and accuses those at or above the threshold, best first.
 */
export function accuse(
  decisions: readonly Decision[],
  candidates: readonly Candidate[],
  options: { first?: number; sessions?: number; eps?: number } = {},
): AccuseResult {
  const first = options.first ?? 0;
  const decidedAt: number[] = [];
  decisions.forEach((d, i) => {
    if (d !== undefined) decidedAt.push(i);
  });
  const decided = decidedAt.length;
  const threshold = agreementsToAccuse(decided, options.sessions, options.eps);
  const accused: Accusation[] = [];
  let best: Accusation | undefined;
  for (const candidate of candidates) {
    let agreements = 0;
    for (const i of decidedAt) if (candidate.sequence[first + i] === decisions[i]) agreements++;
    const score = 2 * agreements - decided;
    if (best && score <= best.score && agreements < threshold) continue;
    const accusation: Accusation = {
      code: candidate.code,
      score,
      agreements,
      decided,
      logInnocentChance: logBinomialTail(decided, agreements),
    };
    if (!best || score > best.score) best = accusation;
    if (agreements >= threshold) accused.push(accusation);
  }
  accused.sort((a, b) => b.score - a.score);
  return { accused, decided, threshold, best };
}
