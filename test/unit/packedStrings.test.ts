// Strings and entity tables read where they lie (graph/packedStrings.ts, EntityIndex.pack/load): what a
// one-shot query reads of the query snapshot without parsing it. Round trips, lookups, and damage refused
// when opened rather than read wrong later.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MultiDirectedGraph } from 'graphology';
import { PackedColumn, packColumns } from '../../src/core/graph/packedStrings';
import type { GraphEdge, GraphNode } from '../../src/core/model/schema';
import { EntityIndex } from '../../src/core/search/entityIndex';

const VALUES = ['', 'app.py#Flask.run', 'é', 'naïve_ß', '𝔘nicode.astral', 'a', 'b'.repeat(3000), 'app.py#Flask.run2'];

test('packed columns give back every string, find indexed ones by value and say when one is missing', () => {
  const columns = PackedColumn.read(packColumns([{ values: VALUES, indexed: true }, { values: ['x', 'y'] }, { values: [] }]));
  assert.equal(columns.length, 3);
  const [ids, plain, empty] = columns;
  assert.deepEqual(ids.all(), VALUES);
  VALUES.forEach((v, i) => assert.equal(ids.indexOf(v), i, v));
  for (const missing of ['app.py#Flask', 'É', 'bb', 'app.py#Flask.run3']) assert.equal(ids.indexOf(missing), -1, missing);
  assert.deepEqual(plain.all(), ['x', 'y']);
  assert.throws(() => plain.indexOf('x'), /no index/);
  assert.equal(empty.length, 0);
});

test('a packed buffer that does not start on a 4-byte boundary is read all the same', () => {
  const packed = packColumns([{ values: VALUES, indexed: true }]);
  const shifted = Buffer.alloc(packed.length + 2);
  packed.copy(shifted, 2);
  const [ids] = PackedColumn.read(shifted.subarray(2));
  assert.equal(ids.indexOf('naïve_ß'), 3);
});

test('damaged packed strings are refused when opened', () => {
  const packed = packColumns([{ values: ['alpha', 'beta', 'gamma'], indexed: true }]);
  const words = () => new Int32Array(new Uint8Array(packed).buffer);
  const damaged = (edit: (ints: Int32Array) => void) => {
    const ints = words();
    edit(ints);
    return () => PackedColumn.read(Buffer.from(ints.buffer));
  };
  // [columns, count, bytes, slots, offsets (4), slots (8), bytes]
  assert.throws(damaged((ints) => (ints[5] = 100)), /column 0 is damaged/, 'an offset past the bytes');
  assert.throws(damaged((ints) => ([ints[5], ints[6]] = [ints[6], ints[5]])), /column 0 is damaged/, 'offsets out of order');
  assert.throws(damaged((ints) => (ints[8] = 9)), /column 0 is damaged/, 'a slot naming a string that is not there');
  assert.throws(damaged((ints) => ints.fill(1, 8, 16)), /column 0 is damaged/, 'no empty slot to end a probe');
  assert.throws(damaged((ints) => (ints[0] = 2)), /column 1 is damaged/, 'a column that is not there');
  assert.throws(() => PackedColumn.read(packed.subarray(0, packed.length - 4)), /damaged/, 'truncated');
});

function graphOf(names: Array<[string, string]>): MultiDirectedGraph<GraphNode, GraphEdge> {
  const graph = new MultiDirectedGraph<GraphNode, GraphEdge>({ allowSelfLoops: true });
  for (const [id, qname] of names) {
    const name = qname.slice(qname.lastIndexOf('.') + 1);
    graph.addNode(id, { id, kind: 'Method', name, qname, path: id.slice(0, id.indexOf('#')), language: 'python', range: null, signature: `def ${name}(self)`, doc: '', hash: id, exported: true });
  }
  return graph;
}

test('entity tables packed and loaded answer lookups as the index they were made from, before and after an update', async () => {
  const graph = graphOf([['app.py#Flask.run', 'flask.app.Flask.run'], ['cli.py#run', 'flask.cli.run'], ['app.py#Flask.run_debug', 'flask.app.Flask.run_debug'], ['ü.py#Größe.maß', 'ü.Größe.maß']]);
  const built = await EntityIndex.build(graph);
  const loaded = EntityIndex.load(graph, built.pack());
  for (const q of ['run', 'Flask.run', 'flask.app.Flask.run', 'RUN', 'run debug', 'Größe.maß', 'maß', 'nothing']) {
    assert.deepEqual(loaded.lookup(q), built.lookup(q), q);
  }
  assert.deepEqual(loaded.lookup('Flask.run').map((m) => m.id)[0], 'app.py#Flask.run');
  graph.dropNode('cli.py#run');
  loaded.update(['cli.py#run']);
  assert.deepEqual(loaded.lookup('run').map((m) => m.id), ['app.py#Flask.run']);
});

test('a loaded index prepared for updates in slices, or updated while it prepares, answers as a fresh build of the changed graph', async () => {
  const names: Array<[string, string]> = Array.from({ length: 400 }, (_, i) => [`m${i % 7}.py#C${i}.handle_${i}`, `pkg.m${i % 7}.C${i}.handle_${i}`]);
  for (const interrupted of [false, true]) {
    const graph = graphOf(names);
    const loaded = EntityIndex.load(graph, (await EntityIndex.build(graph)).pack());
    // Slices of no time at all: one entry per turn, so that an update can land between two of them.
    const preparing = loaded.prepareUpdates(0);
    const renamed = { ...graph.getNodeAttributes('m3.py#C3.handle_3'), name: 'serve_3', qname: 'pkg.m3.C3.serve_3' };
    graph.replaceNodeAttributes('m3.py#C3.handle_3', renamed);
    graph.dropNode('m1.py#C1.handle_1');
    if (interrupted) {
      await new Promise((resolve) => setImmediate(resolve));
      loaded.update(['m3.py#C3.handle_3', 'm1.py#C1.handle_1']);
      await preparing;
    } else {
      await preparing;
      loaded.update(['m3.py#C3.handle_3', 'm1.py#C1.handle_1']);
    }
    const fresh = await EntityIndex.build(graph);
    for (const q of ['handle_3', 'serve_3', 'C3.serve_3', 'C3.handle_3', 'handle_1', 'C1.handle_1', 'handle_2', 'serve', 'handle 3']) {
      assert.deepEqual(loaded.lookup(q), fresh.lookup(q), `${q}${interrupted ? ' (updated while preparing)' : ''}`);
    }
  }
});

test('entity tables that name a node the graph does not have, or another graph, are refused', async () => {
  const graph = graphOf([['a.py#A.f', 'a.A.f'], ['b.py#B.g', 'b.B.g']]);
  const packed = (await EntityIndex.build(graph)).pack();
  const ints = new Int32Array(new Uint8Array(packed).buffer);
  ints[ints.length - 1] = 7; // the last table's last position
  assert.throws(() => EntityIndex.load(graph, Buffer.from(ints.buffer)), /entity tables are damaged/);
  assert.throws(() => EntityIndex.load(graphOf([['a.py#A.f', 'a.A.f']]), packed), /do not fit the graph/);
});
