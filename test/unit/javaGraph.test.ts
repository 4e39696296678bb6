// Java (issue 16): the RANGER two-file example translated to Java node for node and edge for edge,
// extraction details (Javadoc, records, enums, imports, recovery from syntax errors), named edges
// in real code (a 29-file subset of google/gson 9835b6f90, test/fixtures/real/gson, checked by
// reading that code), and the package-scoped stage 2 that Go and Rust will plug into.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { FIXTURES, buildGraph, edgeList, parse, readTree } from './helpers';

test('RANGER example in Java: exact nodes and edges', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'ranger-java')), 'ranger-java');
  const calc = 'com/example/calc/Calculator.java';
  const sci = 'com/example/app/Scientific.java';
  const nodes = graph.graph.mapNodes((id, a) => `${a.kind} ${id} ${a.qname}`).sort();
  assert.deepEqual(nodes, [
    `Class ${sci}#Scientific com.example.app.Scientific`,
    `Class ${calc}#Calculator com.example.calc.Calculator`,
    'External ext:java:java.lang.ArithmeticException java.lang.ArithmeticException',
    'External ext:java:java.lang.String java.lang.String',
    'External ext:java:java.lang.String.format java.lang.String.format',
    `Field ${calc}#Calculator.PRECISION com.example.calc.Calculator.PRECISION`,
    'Folder dir:. ranger-java',
    'Folder dir:com com',
    'Folder dir:com/example com/example',
    'Folder dir:com/example/app com/example/app',
    'Folder dir:com/example/calc com/example/calc',
    `Method ${sci}#Scientific.demo com.example.app.Scientific.demo`,
    `Method ${sci}#Scientific.divide com.example.app.Scientific.divide`,
    `Method ${sci}#Scientific.quickAdd com.example.app.Scientific.quickAdd`,
    `Method ${calc}#Calculator.add com.example.calc.Calculator.add`,
    `Method ${calc}#Calculator.formatResult com.example.calc.Calculator.formatResult`,
    `Method ${calc}#Calculator.multiply com.example.calc.Calculator.multiply`,
    `Module ${sci} com.example.app.Scientific`,
    `Module ${calc} com.example.calc.Calculator`,
  ]);
  assert.deepEqual(edgeList(graph), [
    `CALLS ${sci}#Scientific.demo -> ${sci}#Scientific`,
    `CALLS ${sci}#Scientific.demo -> ${sci}#Scientific.divide`,
    `CALLS ${sci}#Scientific.demo -> ${sci}#Scientific.quickAdd`,
    // formatResult: the static import, or inherited from Calculator: the same method either way.
    `CALLS ${sci}#Scientific.demo -> ${calc}#Calculator.formatResult`,
    `CALLS ${sci}#Scientific.divide -> ${calc}#Calculator.multiply`,
    `CALLS ${sci}#Scientific.divide -> ext:java:java.lang.ArithmeticException`,
    `CALLS ${sci}#Scientific.quickAdd -> ${calc}#Calculator`,
    `CALLS ${sci}#Scientific.quickAdd -> ${calc}#Calculator.add`,
    `CALLS ${calc}#Calculator.formatResult -> ext:java:java.lang.String.format`,
    `CONTAINS ${sci} -> ${sci}#Scientific`,
    `CONTAINS ${calc} -> ${calc}#Calculator`,
    'CONTAINS dir:. -> dir:com',
    'CONTAINS dir:com -> dir:com/example',
    'CONTAINS dir:com/example -> dir:com/example/app',
    'CONTAINS dir:com/example -> dir:com/example/calc',
    `CONTAINS dir:com/example/app -> ${sci}`,
    `CONTAINS dir:com/example/calc -> ${calc}`,
    `HAS_FIELD ${calc}#Calculator -> ${calc}#Calculator.PRECISION`,
    `HAS_METHOD ${sci}#Scientific -> ${sci}#Scientific.demo`,
    `HAS_METHOD ${sci}#Scientific -> ${sci}#Scientific.divide`,
    `HAS_METHOD ${sci}#Scientific -> ${sci}#Scientific.quickAdd`,
    `HAS_METHOD ${calc}#Calculator -> ${calc}#Calculator.add`,
    `HAS_METHOD ${calc}#Calculator -> ${calc}#Calculator.formatResult`,
    `HAS_METHOD ${calc}#Calculator -> ${calc}#Calculator.multiply`,
    `IMPORTS ${sci} -> ${calc}#Calculator`,
    `IMPORTS ${sci} -> ${calc}#Calculator.formatResult`,
    `INHERITS ${sci}#Scientific -> ${calc}#Calculator`,
    `USES ${sci}#Scientific.demo -> ${sci}#Scientific`,
    `USES ${sci}#Scientific.demo -> ext:java:java.lang.String`,
    `USES ${sci}#Scientific.quickAdd -> ${calc}#Calculator`,
    `USES ${calc}#Calculator.formatResult -> ${calc}#Calculator.PRECISION`,
    `USES ${calc}#Calculator.formatResult -> ext:java:java.lang.String`,
  ]);
  const format = graph.graph.getNodeAttributes(`${calc}#Calculator.formatResult`);
  assert.equal(format.signature, 'public static String formatResult(double value)');
  assert.equal(format.doc, 'Formats a result with the class precision.', 'first paragraph, block tags left out');
  assert.equal(format.language, 'java');
  assert.deepEqual(format.range, { startLine: 23, startCol: 2, endLine: 25, endCol: 3 });
  assert.equal(graph.graph.getNodeAttributes(`${calc}#Calculator.PRECISION`).signature, 'public static final int PRECISION');
  assert.equal(graph.importStats().internal, 2);
  assert.equal(graph.importStats().resolved, 2);
});

test('Java extraction: types, members, Javadoc, imports and references as chains', async () => {
  const file = await parse(
    'src/p/Shapes.java',
    `package p.q;

import java.util.List;
import java.util.*;
import static java.util.Objects.requireNonNull;
import static p.q.Util.*;

/**
 * Shapes and their {@code area}.
 *
 * <p>Second paragraph.
 * @author someone
 */
public sealed interface Shapes permits Shapes.Circle {
  /** A circle. */
  record Circle(double r, Point center) implements Shapes {
    Circle {
      requireNonNull(center);
    }
  }

  enum Kind { ROUND, SQUARE; Kind next() { return ROUND; } }

  @interface Marker { String value() default "x"; }

  class Impl<T extends Point> implements Shapes {
    private final List<Point> points = new ArrayList<>();
    private int a, b;

    Impl(Point start) {
      this.points.add(start);
    }

    /** Sum of areas. */
    double area(T t, Point other) {
      var scratch = new Point();
      Helper h = Helper.make();
      h.run(other.x);
      scratch.move();
      super.hashCode();
      Runnable r = () -> { String s = "lambda text"; s.trim(); };
      return t.size() + Kind.ROUND.ordinal() + java.lang.Math.abs(1);
    }
  }
}
`,
  );
  assert.equal(file.package, 'p.q');
  assert.equal(file.syntaxErrors, 0);
  const syms = file.symbols.map((s) => `${s.kind} ${s.localId}${s.type ? `:${s.type.join('.')}` : ''}`);
  assert.deepEqual(syms, [
    'Interface Shapes',
    'Class Shapes.Circle',
    'Field Shapes.Circle.r',
    'Field Shapes.Circle.center:Point',
    'Method Shapes.Circle.Circle',
    'Enum Shapes.Kind',
    'Field Shapes.Kind.ROUND:Kind',
    'Field Shapes.Kind.SQUARE:Kind',
    'Method Shapes.Kind.next',
    'Interface Shapes.Marker',
    'Method Shapes.Marker.value',
    'Class Shapes.Impl',
    'Field Shapes.Impl.points:List',
    'Field Shapes.Impl.a',
    'Field Shapes.Impl.b',
    'Method Shapes.Impl.Impl',
    'Method Shapes.Impl.area',
  ]);
  const byId = new Map(file.symbols.map((s) => [s.localId, s]));
  assert.equal(byId.get('Shapes')!.doc, 'Shapes and their area.');
  assert.equal(byId.get('Shapes')!.signature, 'public sealed interface Shapes permits Shapes.Circle');
  assert.equal(byId.get('Shapes.Impl.area')!.doc, 'Sum of areas.');
  assert.equal(byId.get('Shapes.Impl.b')!.signature, 'private int b');
  assert.equal(byId.get('Shapes.Impl.a')!.exported, false, 'private members are not visible outside the file');
  assert.deepEqual(file.imports.map((i) => [i.local, i.module, i.imported]), [
    ['List', 'java.util', 'List'],
    ['', 'java.util', '*'],
    ['requireNonNull', 'java.util.Objects', 'requireNonNull'],
    ['', 'p.q.Util', '*'],
  ]);
  const refs = file.refs.map((r) => `${r.from} ${r.kind} ${r.chain.join('.')}${r.relation ? ` ${r.relation}` : ''}`);
  for (const expected of [
    'Shapes.Circle INHERITS Shapes implements',
    'Shapes.Impl INHERITS Shapes implements',
    'Shapes.Circle.Circle CALLS requireNonNull',
    'Shapes.Impl.points CALLS ArrayList',
    'Shapes.Impl.Impl CALLS this.points.add',
    // locals and parameters of declared type are rewritten to their type; `var x = new T()` is a T
    'Shapes.Impl.area CALLS Helper.make',
    'Shapes.Impl.area CALLS Helper.run',
    'Shapes.Impl.area USES Point.x',
    'Shapes.Impl.area CALLS Point.move',
    'Shapes.Impl.area CALLS super.hashCode',
    'Shapes.Impl.area CALLS Kind.ROUND.ordinal',
    'Shapes.Impl.area CALLS java.lang.Math.abs',
    'Shapes.Impl.area CALLS String.trim',
  ]) assert.ok(refs.includes(expected), `${expected} in\n${refs.join('\n')}`);
  // `T` is a type parameter (its bound is Point), `t.size()` has no class to name.
  assert.ok(!refs.some((r) => /\bT\b/.test(r.split(' ')[2])), refs.join('\n'));
  assert.ok(file.texts.some((t) => t.from === 'Shapes.Impl.area' && t.literals.includes('lambda text')));
  assert.ok(!file.texts.some((t) => t.comments.includes('Sum of areas')), 'Javadoc is doc, not comment text');
});

test('Java with syntax errors keeps what tree-sitter recovered', async () => {
  const file = await parse(
    'Broken.java',
    `package a;
public class Broken {
  void ok() { helper(); }
  void bad( { int x = ; }
  static void helper() {}
}
`,
  );
  assert.ok(file.syntaxErrors > 0);
  assert.equal(file.package, 'a');
  const ids = file.symbols.map((s) => s.localId);
  assert.ok(ids.includes('Broken') && ids.includes('Broken.ok') && ids.includes('Broken.helper'), ids.join(', '));
  assert.ok(file.refs.some((r) => r.from === 'Broken.ok' && r.kind === 'CALLS' && r.chain.join('.') === 'helper'));
});

test('module-info.java and the default package', async () => {
  const info = await parse('module-info.java', 'module com.google.gson {\n  exports com.google.gson;\n  requires static com.google.errorprone.annotations;\n}\n');
  assert.deepEqual([info.symbols.length, info.refs.length, info.package], [0, 0, ''], 'module and package names are not references');
  // Two files without a package clause see each other like any two files of one package.
  const graph = await buildGraph(new Map([['A.java', 'class A { B b() { return new B(); } }\n'], ['B.java', 'class B {}\n']]));
  assert.ok(edgeList(graph).includes('CALLS A.java#A.b -> B.java#B'));
});

test('gson 9835b6f90: packages, imports, inheritance and calls read off the source', async () => {
  const graph = await buildGraph(readTree(path.join(FIXTURES, 'real/gson')), 'gson');
  const g = 'com/google/gson';
  const edges = new Set(edgeList(graph));
  for (const expected of [
    // same package, no import: JsonArray.java:42 `class JsonArray extends JsonElement implements Iterable<JsonElement>`
    `INHERITS ${g}/JsonArray.java#JsonArray -> ${g}/JsonElement.java#JsonElement`,
    `INHERITS ${g}/JsonArray.java#JsonArray -> ext:java:java.lang.Iterable`,
    // internal/bind/JsonTreeReader.java:39 extends the imported com.google.gson.stream.JsonReader
    `INHERITS ${g}/internal/bind/JsonTreeReader.java#JsonTreeReader -> ${g}/stream/JsonReader.java#JsonReader`,
    `IMPORTS ${g}/internal/bind/JsonTreeReader.java -> ${g}/stream/JsonReader.java#JsonReader`,
    `IMPORTS ${g}/JsonObject.java -> ${g}/internal/LinkedTreeMap.java#LinkedTreeMap`,
    `IMPORTS ${g}/JsonParser.java -> ext:java:java.io.Reader`,
    // JsonParser.java:107-119 parseReader(Reader): new JsonReader(reader), the overload, JsonToken.END_DOCUMENT, JsonSyntaxException
    `CALLS ${g}/JsonParser.java#JsonParser.parseReader -> ${g}/stream/JsonReader.java#JsonReader`,
    `CALLS ${g}/JsonParser.java#JsonParser.parseReader -> ${g}/JsonParser.java#JsonParser.parseReader`,
    `CALLS ${g}/JsonParser.java#JsonParser.parseReader -> ${g}/stream/JsonReader.java#JsonReader.peek`,
    `CALLS ${g}/JsonParser.java#JsonParser.parseReader -> ${g}/JsonElement.java#JsonElement.isJsonNull`,
    `USES ${g}/JsonParser.java#JsonParser.parseReader -> ${g}/stream/JsonToken.java#JsonToken.END_DOCUMENT`,
    `CALLS ${g}/JsonParser.java#JsonParser.parseReader -> ${g}/JsonSyntaxException.java#JsonSyntaxException`,
    `USES ${g}/JsonParser.java#JsonParser.parseReader -> ext:java:java.io.Reader`,
    // JsonParser.java:136-150 parseReader(JsonReader): static call Streams.parse, Strictness.LENIENT
    `CALLS ${g}/JsonParser.java#JsonParser.parseReader@2 -> ${g}/internal/Streams.java#Streams.parse`,
    `USES ${g}/JsonParser.java#JsonParser.parseReader@2 -> ${g}/Strictness.java#Strictness.LENIENT`,
    `CALLS ${g}/JsonParser.java#JsonParser.parseReader@2 -> ${g}/stream/JsonReader.java#JsonReader.setStrictness`,
    // JsonElement.java:421-433 toString: new JsonWriter(Streams.writerForAppendable(..)), Streams.write(this, ..)
    `CALLS ${g}/JsonElement.java#JsonElement.toString -> ${g}/stream/JsonWriter.java#JsonWriter`,
    `CALLS ${g}/JsonElement.java#JsonElement.toString -> ${g}/internal/Streams.java#Streams.writerForAppendable`,
    `CALLS ${g}/JsonElement.java#JsonElement.toString -> ${g}/internal/Streams.java#Streams.write`,
    `CALLS ${g}/JsonElement.java#JsonElement.toString -> ${g}/stream/JsonWriter.java#JsonWriter.setStrictness`,
    `CALLS ${g}/JsonElement.java#JsonElement.toString -> ext:java:java.lang.StringBuilder`,
    // JsonObject.java:69-71 add: members (a LinkedTreeMap field) .put
    `CALLS ${g}/JsonObject.java#JsonObject.add -> ${g}/internal/LinkedTreeMap.java#LinkedTreeMap.put`,
    // JsonPrimitive.java:143 new LazilyParsedNumber((String) value)
    `CALLS ${g}/JsonPrimitive.java#JsonPrimitive.getAsNumber -> ${g}/internal/LazilyParsedNumber.java#LazilyParsedNumber`,
    // JsonTreeReader.java:82-84 beginArray: an inherited-free own call, an enum constant of another package
    `CALLS ${g}/internal/bind/JsonTreeReader.java#JsonTreeReader.beginArray -> ${g}/internal/bind/JsonTreeReader.java#JsonTreeReader.expect`,
    `USES ${g}/internal/bind/JsonTreeReader.java#JsonTreeReader.beginArray -> ${g}/stream/JsonToken.java#JsonToken.BEGIN_ARRAY`,
    // JsonWriter.java:20 `import static ...JsonScope.EMPTY_ARRAY`, used at :409 in beginArray
    `IMPORTS ${g}/stream/JsonWriter.java -> ${g}/stream/JsonScope.java#JsonScope.EMPTY_ARRAY`,
    `USES ${g}/stream/JsonWriter.java#JsonWriter.beginArray -> ${g}/stream/JsonScope.java#JsonScope.EMPTY_ARRAY`,
    `CALLS ${g}/stream/JsonWriter.java#JsonWriter.beginArray -> ${g}/stream/JsonWriter.java#JsonWriter.openScope`,
    // nested class: LinkedTreeMap.Node
    `HAS_FIELD ${g}/internal/LinkedTreeMap.java#LinkedTreeMap.Node -> ${g}/internal/LinkedTreeMap.java#LinkedTreeMap.Node.parent`,
  ]) assert.ok(edges.has(expected), `missing ${expected}`);
  const stats = graph.importStats();
  assert.equal(stats.resolved, stats.internal, stats.unresolvedSamples.join('\n'));
  assert.equal(graph.graph.getNodeAttributes(`${g}/JsonArray.java#JsonArray`).qname, 'com.google.gson.JsonArray');
  assert.equal(graph.graph.getNodeAttributes(`${g}/JsonArray.java`).qname, 'com.google.gson.JsonArray');
  // JsonParser.java:122-135: `{@code parse}` reduced to its text, the `<p>` paragraph and `@throws` left out
  assert.equal(
    graph.graph.getNodeAttributes(`${g}/JsonParser.java#JsonParser.parseReader@2`).doc,
    'Returns the next value from the JSON stream as a parse tree. Unlike the other parse\nmethods, no exception is thrown if the JSON data has multiple top-level JSON elements, or if\nthere is trailing data.',
  );
});

test('Java updates re-resolve only the files whose lookups changed; a package class shadows java.lang', async () => {
  const tree = readTree(path.join(FIXTURES, 'ranger-java'));
  const graph = await buildGraph(tree, 'ranger-java');
  const calc = 'com/example/calc/Calculator.java';
  const sci = 'com/example/app/Scientific.java';
  graph.apply({ upsert: [await parse(calc, tree.get(calc)!.replace('return a + b;', 'return b + a;'))] });
  assert.equal(graph.lastApply.resolved, 1, 'a body edit provides the same package keys');
  graph.apply({ upsert: [await parse('com/example/app/Helper.java', 'package com.example.app;\nclass Helper {}\n')] });
  assert.equal(graph.lastApply.resolved, 1, 'a new name nobody looked up');
  // Scientific.divide looked `ArithmeticException` up in its own package before java.lang.
  graph.apply({ upsert: [await parse('com/example/app/ArithmeticException.java', 'package com.example.app;\nclass ArithmeticException extends RuntimeException {}\n')] });
  assert.equal(graph.lastApply.resolved, 2);
  const divide = graph.graph.outNeighbors(`${sci}#Scientific.divide`);
  assert.ok(divide.includes('com/example/app/ArithmeticException.java#ArithmeticException'), divide.join(', '));
  assert.ok(!graph.graph.hasNode('ext:java:java.lang.ArithmeticException'), 'the external nobody points at is gone');
  graph.apply({ upsert: [await parse(calc, tree.get(calc)!.replace(/\bmultiply\b/g, 'times'))] });
  assert.equal(graph.lastApply.resolved, 2, 'Calculator.java and Scientific.java, which called multiply');
  assert.ok(!graph.graph.outNeighbors(`${sci}#Scientific.divide`).some((n) => n.startsWith(calc)));
});

test('package-scoped stage 2 for Go and Rust: methods declared away from their type (receiver) and INHERITS with a subject', async () => {
  // Per-file graphs as the Go/Rust extractors will emit them (LANG-CONVENTIONS.md), written in Java
  // syntax so this test needs only the Java scheme: `Server.run` in another file than `Server`.
  const server = await parse('p/Server.java', 'package p;\nclass Server { int port; }\ninterface Runner {}\n');
  const base = await parse('p/methods.java', 'package p;\nclass Holder { void run() {} }\n');
  const method = base.symbols.find((s) => s.localId === 'Holder.run')!;
  const methods = {
    ...base,
    symbols: [{ ...method, localId: 'Server.run', parent: null, receiver: ['Server'] }],
    refs: [{ from: null, kind: 'INHERITS' as const, chain: ['Runner'], subject: ['Server'], relation: 'implements' as const, line: 1 }],
  };
  const caller = await parse('p/Main.java', 'package p;\nclass Main { void go(Server s) { s.run(); } }\n');
  const graph = new RepositoryGraph('p');
  graph.apply({ upsert: [server, methods, caller] });
  const edges = edgeList(graph);
  assert.ok(edges.includes('HAS_METHOD p/Server.java#Server -> p/methods.java#Server.run'), edges.join('\n'));
  assert.ok(!edges.includes('CONTAINS p/methods.java -> p/methods.java#Server.run'));
  assert.ok(edges.includes('INHERITS p/Server.java#Server -> p/Server.java#Runner'));
  assert.ok(edges.includes('CALLS p/Main.java#Main.go -> p/methods.java#Server.run'), 'the method is a member of its type');
  // The method's file goes away: the caller, which looked it up through its receiver key, follows.
  graph.apply({ remove: ['p/methods.java'] });
  const after = edgeList(graph);
  assert.ok(!after.some((e) => e.includes('Server.run') || e.startsWith('INHERITS')), after.join('\n'));
  assert.equal(graph.lastApply.resolved, 1, 'Main.java re-resolved; Server.java never read the method file');
});
