// Generic types in TypeScript resolution: a value typed by a type parameter has the members of the
// parameter's constraint (or default), and an untyped parameter of a function passed to a call takes
// the type the callee declares for it, a callee type parameter fixed by the call's type arguments or
// by the declared type its result is assigned to — as the TypeScript service types them. Issue 19:
// zod's schemas are written inside `core.$constructor("ZodX", (inst, def) => { inst._zod… })`.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import type { RepositoryGraph } from '../../src/core/graph/repositoryGraph';
import { FIXTURES, buildGraph, edgeList, readTree } from './helpers';

describe('generic types (real zod and TanStack Query)', () => {
  let zod: string[];
  let zodGraph: RepositoryGraph;
  let tanstack: string[];
  before(async () => {
    zodGraph = await buildGraph(readTree(path.join(FIXTURES, 'real', 'zod', 'src')), 'zod');
    zod = edgeList(zodGraph);
    tanstack = edgeList(await buildGraph(readTree(path.join(FIXTURES, 'real', 'tanstack-query-core', 'src'))));
  });

  it('a callback parameter typed by the declared type the call is assigned to: `const ZodEnum: core.$constructor<ZodEnum> = core.$constructor("ZodEnum", (inst, def) => { inst.enum = … })`', () => {
    // $constructor<T, D>(name, initializer: (inst: T, def: D) => void): $constructor<T, D> — T is ZodEnum here.
    const out = zod.filter((e) => e.startsWith('USES classic/schemas.ts#ZodEnum@2 ->'));
    assert.ok(out.includes('USES classic/schemas.ts#ZodEnum@2 -> classic/schemas.ts#ZodEnum.enum'), out.join('\n'));
    assert.ok(out.includes('USES classic/schemas.ts#ZodEnum@2 -> classic/schemas.ts#ZodEnum.extract'), out.join('\n'));
  });

  it('...and by explicit type arguments: `core.$constructor<ZodType>("ZodType", (inst, def) => { inst.def = def })`', () => {
    const out = zod.filter((e) => e.startsWith('USES classic/schemas.ts#ZodType@2 ->'));
    assert.ok(out.includes('USES classic/schemas.ts#ZodType@2 -> classic/schemas.ts#ZodType.def'), out.join('\n'));
  });

  it('a type parameter the call does not fix types nothing (`def` is `D`, which `core.$constructor<ZodEnum>` leaves to its default): no guess', () => {
    const refs = zodGraph.fileGraph('classic/schemas.ts')!.refs.filter((r) => r.chain.includes('entries') && r.chain[0] === 'core');
    assert.ok(refs.length > 0, 'def.entries is written through the callback step');
    assert.ok(!zod.some((e) => e.startsWith('USES classic/schemas.ts#ZodEnum@2 ->') && e.endsWith('.entries')), 'no member reached');
  });

  it('an untyped parameter of a function assigned to a variable declared with a function type alias: `const nullableProcessor: Processor<schemas.$ZodNullable> = (schema, ctx, json, params) => { json.nullable = true }`', () => {
    // type Processor<T …> = (schema: T, ctx: ToJSONSchemaContext, json: JSONSchema.BaseSchema, params: ProcessParams) => void
    const out = zod.filter((e) => e.startsWith('USES core/json-schema-processors.ts#nullableProcessor ->'));
    assert.ok(out.includes('USES core/json-schema-processors.ts#nullableProcessor -> core/json-schema.ts#JSONSchema.nullable'), out.join('\n'));
  });

  it('a parameter typed by a type parameter reaches the members of its constraint: `defaultMutationOptions<T extends MutationOptions<…>>(options?: T)` → `options.mutationKey`', () => {
    const out = tanstack.filter((e) => e.startsWith('USES queryClient.ts#QueryClient.defaultMutationOptions ->'));
    assert.ok(out.includes('USES queryClient.ts#QueryClient.defaultMutationOptions -> types.ts#MutationOptions.mutationKey'), out.join('\n'));
  });
});
