// describe_code on MCP's 2026-07-28 revision, where a server no longer sends the client requests: it
// answers the tool call with `input_required` and the sampling requests it needs, and the client
// answers them by calling the tool again with their results (multi round-trip requests). Lifting is
// a loop that asks the model one prompt after another, so a call's lifting runs here between rounds:
// each round sends the prompts it is waiting on (up to ROUND_SIZE at once, the lifter asking that many
// together), the retry's answers let it go on, and the call ends with its report. The request state is
// only the run's random id; an unknown one (this server restarted, the run timed out) starts a new
// run, which asks only for what is not described yet.
import { randomUUID } from 'node:crypto';
import { inputRequired, type InputRequiredResult } from '@modelcontextprotocol/server';
import type { Describer } from '../core/lifting/lifter';
import { sampledText, samplingParams, type SamplingParams } from './mcpSampling';

/** Sampling requests one round carries at most. */
export const ROUND_SIZE = 8;
/** Rounds one call takes before it ends with what is done: clients cap a call's rounds (the SDK's client at 10). */
export const MAX_ROUNDS = 8;
/** A round whose retry never comes ends its run. */
const ROUND_TIMEOUT_MS = 10 * 60_000;
/** How long a round waits for the lifter's next prompt of the same wave before it is sent (nothing next to a model's answer). */
const SETTLE_MS = 100;

interface Pending {
  params: SamplingParams;
  sent: boolean;
  resolve(text: string): void;
  reject(err: Error): void;
}

/** One call's lifting, across its rounds. */
class Run {
  readonly id = randomUUID();
  readonly pending = new Map<string, Pending>();
  readonly answer: Promise<string>;
  /** Why the run was ended early: every prompt from then on fails at once, so the lifting stops. */
  private ended: string | undefined;
  rounds = 0;
  done = false;
  timer: ReturnType<typeof setTimeout> | undefined;
  private asked = 0;
  private wake: (() => void) | undefined;

  constructor(lift: (describer: Describer) => Promise<string>) {
    const describer: Describer = {
      concurrency: ROUND_SIZE,
      describe: (system, prompt) =>
        new Promise<string>((resolve, reject) => {
          if (this.ended) return reject(new Error(this.ended));
          this.pending.set(`sample-${this.asked++}`, { params: samplingParams(system, prompt), sent: false, resolve, reject });
          this.wake?.();
        }),
    };
    this.answer = lift(describer).finally(() => {
      this.done = true;
      this.wake?.();
    });
  }

  /** Resolves once the run is over, or has prompts to send and asks no more for SETTLE_MS. */
  async settle(): Promise<void> {
    for (;;) {
      if (this.done) return;
      if ([...this.pending.values()].some((p) => !p.sent)) {
        for (let before = -1; before !== this.asked && !this.done; ) {
          before = this.asked;
          await new Promise((r) => setTimeout(r, SETTLE_MS));
        }
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** The client's answers to the requests of the last round; one it did not answer fails that prompt. */
  deliver(responses: Record<string, unknown> | undefined): void {
    for (const [key, p] of this.pending) {
      if (!p.sent) continue;
      this.pending.delete(key);
      const response = responses?.[key] as { content?: unknown } | undefined;
      if (response && 'content' in response) p.resolve(sampledText(response as { content: unknown }));
      else p.reject(new Error('the client sent no answer for this sampling request'));
    }
  }

  /** Fails every prompt waiting and every one asked from now on: the lifting stops. */
  end(why: string): void {
    this.ended = why;
    for (const p of this.pending.values()) p.reject(new Error(why));
    this.pending.clear();
  }
}

export class SamplingRounds {
  private readonly runs = new Map<string, Run>();

  /**
   * One round of a describe_code call: `state` and `responses` are what the client sent back (none on
   * the first call); `lift` runs the lifting with the describer it is given and answers the call's text.
   */
  async round(state: string | undefined, responses: Record<string, unknown> | undefined, lift: (describer: Describer) => Promise<string>): Promise<{ done: string; input?: never } | { done?: never; input: InputRequiredResult }> {
    let run = state === undefined ? undefined : this.runs.get(state);
    if (run) run.deliver(responses);
    else {
      run = new Run(lift);
      this.runs.set(run.id, run);
    }
    clearTimeout(run.timer);
    await run.settle();
    if (!run.done && ++run.rounds > MAX_ROUNDS) {
      run.end(`describe_code asks for samples in at most ${MAX_ROUNDS} rounds a call: call it again to go on`);
      await run.answer.catch(() => undefined);
    }
    if (run.done) {
      this.runs.delete(run.id);
      return { done: await run.answer };
    }
    const requests = Object.fromEntries(
      [...run.pending].filter(([, p]) => !p.sent).map(([key, p]) => {
        p.sent = true;
        return [key, inputRequired.createMessage(p.params)];
      }),
    );
    const current = run;
    current.timer = setTimeout(() => {
      this.runs.delete(current.id);
      current.end('the client did not answer the sampling requests');
    }, ROUND_TIMEOUT_MS);
    current.timer.unref?.();
    return { input: inputRequired({ inputRequests: requests, requestState: current.id }) };
  }
}
