// `node --import tsx train/model/check-export.ts MODEL_DIR REFERENCE_JSON`
// Does an exported model (train.py --out, any pooling or mixer) give, through the product's own
// transformers.js loader, the vectors PyTorch computed at export (train.py --reference)? The shipped
// model's unit test does this for models/<shipped id>; this checks an experiment's export before it
// is shipped. Texts are embedded one by one and all in one padded batch (padding must not move a
// vector), and an empty text must embed to the zero vector. Exits 1 on a mismatch.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadTransformersEmbedder } from '../../src/core/models/transformersModels';

const TOLERANCE = 1e-4;

async function main(): Promise<void> {
  const [dir, referenceFile] = process.argv.slice(2);
  if (!dir || !referenceFile) throw new Error('usage: check-export.ts MODEL_DIR REFERENCE_JSON');
  const reference = JSON.parse(fs.readFileSync(referenceFile, 'utf8')) as { texts: string[]; vectors: number[][] };
  const modelDir = path.resolve(dir);
  const options = { localPath: path.dirname(modelDir), allowRemote: false, quantized: true };
  const single = await loadTransformersEmbedder(path.basename(modelDir), { ...options, batchSize: 1 });
  const batched = await loadTransformersEmbedder(path.basename(modelDir), { ...options, batchSize: reference.texts.length + 1 });
  let worst = 0;
  try {
    const one = await single.embed(reference.texts);
    const all = await batched.embed([...reference.texts, '']);
    reference.texts.forEach((text, i) => {
      for (const [how, v] of [['alone', one[i]], ['in a padded batch', all[i]]] as const) {
        const diff = Math.max(...reference.vectors[i].map((x, d) => Math.abs(x - v[d])));
        worst = Math.max(worst, diff);
        if (diff >= TOLERANCE) console.log(`MISMATCH ${how}: ${JSON.stringify(text)} differs by ${diff}`);
      }
    });
    // Empty next to other texts (all padding) and alone (a sequence of length 0).
    for (const [how, empty] of [['in a batch', all[reference.texts.length]], ['alone', (await single.embed(['']))[0]]] as const) {
      if (empty.every((x) => x === 0)) continue;
      worst = Infinity;
      console.log(`MISMATCH: the empty text ${how} embeds to ${empty.slice(0, 4).join(', ')}…, not zeros`);
    }
  } finally {
    await single.close();
    await batched.close();
  }
  console.log(`${reference.texts.length} reference texts, alone and batched: largest difference from PyTorch ${worst.toExponential(2)} (tolerance ${TOLERANCE})`);
  if (!(worst < TOLERANCE)) process.exitCode = 1;
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
