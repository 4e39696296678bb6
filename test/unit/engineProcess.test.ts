import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { PanicFilter } from '../../src/cli/engineProcess';

const PANIC = [
  "thread 'tokio-rt-worker' (22541) panicked at /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-encoding-10.0.0/src/buffer.rs:290:9:",
  'the offset + length of the sliced Buffer cannot exceed the existing length',
  'stack backtrace:',
  '   0: __rustc::rust_begin_unwind',
  'note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.',
].join('\n');

function filtered(chunks: string[]): string {
  let out = '';
  const filter = new PanicFilter((text) => (out += text));
  for (const chunk of chunks) filter.write(chunk);
  filter.end();
  return out;
}

test("Rust panic reports are dropped from the engine's stderr, whatever the chunking, and our lines pass", () => {
  const ours = "cartograph: the graph store at /s is damaged: table nodes: a data file could not be decoded.\nNothing was changed; run 'cartograph index /r' to rebuild it.\n";
  const text = `cartograph: no query snapshot yet; loading the graph from the store\n${PANIC}\n${ours}`;
  const expected = `cartograph: no query snapshot yet; loading the graph from the store\n${ours}`;
  assert.equal(filtered([text]), expected);
  // Split at every position: the filter never lets part of a report through.
  for (let at = 1; at < text.length; at += 7) assert.equal(filtered([text.slice(0, at), text.slice(at)]), expected, `split at ${at}`);
  // A report without a backtrace ends at its note line too.
  assert.equal(filtered(["thread 'main' panicked at src/x.rs:1:1:\nboom\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\nafter\n"]), 'after\n');
});

test('a progress bar redrawing its line without a newline passes at once', () => {
  let out = '';
  const filter = new PanicFilter((text) => (out += text));
  filter.write('\r parse   [====    ] 10/20');
  assert.equal(out, '\r parse   [====    ] 10/20');
});
