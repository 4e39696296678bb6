// What the service suites (service.test.ts, hostedService.test.ts) ask of a repository's service
// while they drive it: wait for a state rather than a duration, and the hello of whatever listens.
import { connectService } from '../../src/core/service/serviceClient';
import type { ServiceHello } from '../../src/core/service/serviceProtocol';

/** Polls `probe` until it returns a value; the bound only ends a test that would otherwise hang. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The hello of the service listening for `storeDir`, or undefined when none does. */
export async function helloOf(storeDir: string): Promise<ServiceHello | undefined> {
  const c = await connectService(storeDir);
  c?.close();
  return c?.hello;
}

/** Resolves once process `pid` has exited. */
export function gone(pid: number): Promise<true> {
  return until(`pid ${pid} to exit`, () => {
    try {
      process.kill(pid, 0);
      return undefined;
    } catch {
      return true;
    }
  });
}
