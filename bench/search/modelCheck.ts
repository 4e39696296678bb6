// Is a model folder the project's RANDOM-weight test stand-in rather than real weights? Quality
// figures measured with stand-ins are noise, so the benchmark shouts when it sees one. Signs, any of
// which is enough: the id namespace test/unit/modelFixtures.ts uses, its `.ready` marker in the
// folder, and the ONNX producer name that test/support/randomBert.ts writes.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURE_PRODUCER } from '../../test/support/randomBert';

/** Why the models look like test fixtures; empty when nothing says so. */
export function fixtureSigns(modelsDir: string | undefined, ids: string[]): string[] {
  const signs: string[] = [];
  for (const id of ids) if (id.startsWith('synthetic/')) signs.push(`model id ${id} is a test fixture id`);
  if (!modelsDir) return signs;
  if (fs.existsSync(path.join(modelsDir, '.ready'))) signs.push(`${modelsDir} has the .ready marker of test/unit/modelFixtures.ts`);
  for (const id of ids) {
    const onnx = path.join(modelsDir, id, 'onnx');
    if (!fs.existsSync(onnx)) continue;
    for (const file of fs.readdirSync(onnx).filter((f) => f.endsWith('.onnx'))) {
      // The producer name sits in the first bytes of the protobuf, before the graph.
      const fd = fs.openSync(path.join(onnx, file), 'r');
      const head = Buffer.alloc(256);
      fs.readSync(fd, head, 0, head.length, 0);
      fs.closeSync(fd);
      if (head.includes(FIXTURE_PRODUCER)) signs.push(`${id}/onnx/${file} was written by the random-weight fixture recipe`);
    }
  }
  return signs;
}
