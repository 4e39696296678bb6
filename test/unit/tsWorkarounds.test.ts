// Grammar gaps in tree-sitter-typescript that real code (Effect 3, fp-ts) hits on every page: the
// workarounds must make those files parse cleanly without moving a single character.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractFile } from '../../src/core/parse/extract';
import { prepareTypeScript } from '../../src/core/parse/tsWorkarounds';
import { pool } from './helpers';

// Shapes copied from effect@3.22.4 src/Function.ts, src/Unify.ts and src/internal/channel/continuation.ts.
const EFFECT_STYLE = `import type { TypeLambda } from "./HKT.js"

export const dual: {
  <DataLast extends (...args: Array<any>) => any, DataFirst extends (...args: Array<any>) => any>(arity: Parameters<DataFirst>["length"], body: DataFirst): DataLast & DataFirst
  /**
   * overload
   */
  <DataLast extends (...args: Array<any>) => any, DataFirst extends (...args: Array<any>) => any>(isDataFirst: (args: IArguments) => boolean, body: DataFirst): DataLast & DataFirst
} = function(arity, body) {
  return body
}

export const unify: {
  <
    Args extends Array<any>,
    T
  >(
    x: (...args: Args) => T
  ): (...args: Args) => T
  <T>(x: T): T
} = identity

export interface Continuation<
  out Env,
  in InErr,
  in out InElem
> {
  readonly run: (e: InErr) => Env
}

export function identity<const A>(a: A): A {
  return a
}

export const compose = dual(2, <A, B, C>(ab: (a: A) => B, bc: (b: B) => C): (a: A) => C => (a) => bc(ab(a)))
`;

test('Effect-style overloads, variance and const modifiers parse without errors', async () => {
  const graph = await extractFile(pool, 'src/Function.ts', 'typescript', EFFECT_STYLE);
  assert.equal(graph.syntaxErrors, 0);
  const names = graph.symbols.filter((s) => s.parent === null).map((s) => `${s.kind} ${s.name}`);
  assert.deepEqual(names, ['Function dual', 'GlobalVariable unify', 'Interface Continuation', 'Function identity', 'GlobalVariable compose']);
  assert.ok(graph.refs.some((r) => r.from === 'compose' && r.kind === 'CALLS' && r.chain.join('.') === 'dual'));
});

test('the workarounds keep every line and column in place', () => {
  const prepared = prepareTypeScript(EFFECT_STYLE, { tsx: false, declaration: false });
  assert.equal(prepared.length, EFFECT_STYLE.length);
  assert.deepEqual(prepared.split('\n').map((l) => l.length), EFFECT_STYLE.split('\n').map((l) => l.length));
  assert.notEqual(prepared, EFFECT_STYLE);
  // expressions that continue onto a line starting with `<` are left alone
  const arrowArgument = 'const f = dual(2,\n  <A>(a: A) => a)\n';
  assert.equal(prepareTypeScript(arrowArgument, { tsx: false, declaration: false }), arrowArgument);
  // JSX lines are never touched in TSX
  const jsx = 'const v = (\n  <div>\n    <span>x</span>\n  </div>\n)\n';
  assert.equal(prepareTypeScript(jsx, { tsx: true, declaration: false }), jsx);
});

// The shape TypeScript's declaration emit gives every AWS SDK v3 command (@aws-sdk/client-sqs 3.1175.0,
// dist-types/commands/AddPermissionCommand.d.ts and runtimeConfig.d.ts, Apache-2.0; doc comments cut).
const AWS_COMMAND = `import type { MetadataBearer as __MetadataBearer } from "@smithy/types";
import type { AddPermissionRequest } from "../models/models_0";
export interface AddPermissionCommandInput extends AddPermissionRequest {
}
export interface AddPermissionCommandOutput extends __MetadataBearer {
}
declare const AddPermissionCommand_base: {
    new (input: AddPermissionCommandInput): import("@smithy/core/client").CommandImpl<AddPermissionCommandInput, AddPermissionCommandOutput, import("..").SQSClientResolvedConfig, import("..").ServiceInputTypes, import("..").ServiceOutputTypes>;
    getEndpointParameterInstructions(): import("@smithy/types").EndpointParameterInstructions;
};
export declare class AddPermissionCommand extends AddPermissionCommand_base {
    protected static __types: {
        sdk: {
            input: AddPermissionCommandInput;
            output: AddPermissionCommandOutput;
        };
    };
}
export declare const getRuntimeConfig: (config: AddPermissionCommandInput) => {
    extensions: import("./runtimeExtensions").RuntimeExtension[];
    maxAttempts: number | import("@smithy/types").Provider<number>;
};
`;

test('import types followed by type arguments or [] parse in declaration files (AWS SDK v3 commands), offsets kept', async () => {
  const declared = await extractFile(pool, 'commands/AddPermissionCommand.d.ts', 'typescript', AWS_COMMAND);
  assert.equal(declared.syntaxErrors, 0);
  const names = declared.symbols.filter((s) => s.parent === null).map((s) => `${s.kind} ${s.name}`);
  assert.deepEqual(names, ['Interface AddPermissionCommandInput', 'Interface AddPermissionCommandOutput', 'GlobalVariable AddPermissionCommand_base', 'Class AddPermissionCommand', 'GlobalVariable getRuntimeConfig']);
  // the type arguments are still read: the base's constructor type names the command's input and output
  const used = declared.refs.filter((r) => r.from === 'AddPermissionCommand_base').map((r) => r.chain.join('.'));
  assert.ok(used.includes('AddPermissionCommandInput') && used.includes('AddPermissionCommandOutput'), used.join(', '));
  const prepared = prepareTypeScript(AWS_COMMAND, { tsx: false, declaration: true });
  assert.deepEqual(prepared.split('\n').map((l) => l.length), AWS_COMMAND.split('\n').map((l) => l.length));
  // in a source file `import(…)` may be a dynamic import: it is left as written
  assert.equal(prepareTypeScript(AWS_COMMAND, { tsx: false, declaration: false }), AWS_COMMAND);
});
