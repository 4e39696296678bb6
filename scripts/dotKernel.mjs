// Assembles src/core/models/dotKernel.wat (WebAssembly text, SIMD) into the base64 constant of
// src/core/models/dotKernel.ts: `node scripts/dotKernel.mjs` after changing the .wat.
// test/unit/dotKernel.test.ts checks that the constant is this assembly of the .wat.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

const WAT = new URL('../src/core/models/dotKernel.wat', import.meta.url);
const TS = new URL('../src/core/models/dotKernel.ts', import.meta.url);

export async function assembleDotKernel() {
  const module = (await wabt()).parseWat('dotKernel.wat', readFileSync(WAT, 'utf8'), { simd: true });
  try {
    return Buffer.from(module.toBinary({}).buffer).toString('base64');
  } finally {
    module.destroy();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const base64 = await assembleDotKernel();
  const ts = readFileSync(TS, 'utf8');
  writeFileSync(TS, ts.replace(/const KERNEL = '[^']*';/, `const KERNEL = '${base64}';`));
  console.log(`dotKernel.ts: ${Buffer.from(base64, 'base64').length} bytes of WebAssembly`);
}
