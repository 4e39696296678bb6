// TypeScript values typed by what they are taken from, as the TypeScript language service types them:
// an element of a typed array or iterable (`for (const f of fibers)`, `xs[0]`, `xs.pop()`), a type
// parameter standing for its constraint there too (effect's `fiberInterruptAll = <A extends
// Iterable<MicroFiber<any, any>>>(fibers: A)`), and a type assertion (`u as Fiber`, `<Fiber>u`), in a
// local or called on in place (`xs[0].poll()`, `(u as Fiber).poll()`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGraph, edgeList } from './helpers';

const FIBER = 'export interface Fiber {\n  interrupt(): void\n  poll(): number\n}\n';

test('locals taken from typed collections or asserted to a type reach that type\'s members', async () => {
  const edges = edgeList(
    await buildGraph(
      new Map([
        ['fiber.ts', FIBER],
        [
          'use.ts',
          [
            'import type { Fiber } from "./fiber"',
            'export const all = <A extends Iterable<Fiber>>(fibers: A) => {',
            '  for (const fiber of fibers) fiber.interrupt()',
            '}',
            'export function each(fibers: ReadonlyArray<Fiber>, more: readonly Fiber[] | undefined, sets: Set<Fiber>) {',
            '  for (const f of fibers) f.poll()',
            '  for (const g of more!) g.interrupt()',
            '  for (const h of sets) h.poll()',
            '}',
            'export function take(stack: Array<Fiber>, list: Fiber[]) {',
            '  const top = stack.pop()',
            '  top!.interrupt()',
            '  const first = list[0]',
            '  first.poll()',
            '}',
            'export function inline(u: unknown, stack: Fiber[]) {',
            '  (u as Fiber).poll()',
            '  stack[0].interrupt()',
            '}',
            'export function popped(stack: Array<Fiber>) {',
            '  stack.pop()!.poll()',
            '}',
            'export function assert(u: unknown) {',
            '  const f = u as Fiber',
            '  f.poll()',
            '  const g = <Fiber>u',
            '  g.interrupt()',
            '}',
            'export function untyped(xs: any[], n: number[]) {',
            '  for (const x of xs) x.poll()',
            '  for (const k of n) k.interrupt()',
            '}',
            '',
          ].join('\n'),
        ],
      ]),
    ),
    (kind) => kind === 'CALLS',
  ).filter((e) => e.startsWith('CALLS use.ts'));
  assert.deepEqual(edges, [
    'CALLS use.ts#all -> fiber.ts#Fiber.interrupt',
    'CALLS use.ts#assert -> fiber.ts#Fiber.interrupt',
    'CALLS use.ts#assert -> fiber.ts#Fiber.poll',
    'CALLS use.ts#each -> fiber.ts#Fiber.interrupt',
    'CALLS use.ts#each -> fiber.ts#Fiber.poll',
    'CALLS use.ts#inline -> fiber.ts#Fiber.interrupt',
    'CALLS use.ts#inline -> fiber.ts#Fiber.poll',
    'CALLS use.ts#popped -> ext:js:Array.pop',
    'CALLS use.ts#popped -> fiber.ts#Fiber.poll',
    'CALLS use.ts#take -> ext:js:Array.pop',
    'CALLS use.ts#take -> fiber.ts#Fiber.interrupt',
    'CALLS use.ts#take -> fiber.ts#Fiber.poll',
  ]);
});
