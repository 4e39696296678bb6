// The built CLI (dist/cli.js) on a Go folder: cobra 1.6.1's fixture indexes without a crash, Go
// symbols are found by name, methods sit under their struct, and Go imports are Go externals.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { CLI, FIXTURES, runCli } from './helpers';

let root: string;
const cartograph = (args: string[]) => runCli(args, root);

before(() => {
  assert.ok(fs.existsSync(CLI), 'dist/cli.js is built by `npm run build` (npm test runs it first)');
  root = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cartograph-cli-go-')), 'cobra');
  fs.cpSync(path.join(FIXTURES, 'real', 'cobra'), root, { recursive: true });
});
after(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

test('index and query on a Go folder', () => {
  const index = cartograph(['index', root, '--json']);
  assert.equal(index.code, 0, index.stderr);
  const { report, stats } = JSON.parse(index.stdout);
  assert.equal(report.parsed, 6); // args, cobra, command, flag_groups, doc/md_docs, doc/util
  assert.equal(stats.nodes.Class, 2); // Command, Group
  assert.equal(stats.edges.HAS_METHOD, 109 + 4 + 3 + 3); // *Command in command.go and in flag_groups.go, commandSorterByName, doc's byName

  const entity = JSON.parse(cartograph(['query', 'GenMarkdownTree', '--json']).stdout);
  assert.equal(entity.route, 'entity');
  assert.equal(entity.hits[0].id, 'doc/md_docs.go#GenMarkdownTree');
  assert.equal(entity.hits[0].kind, 'Function');

  const shown = JSON.parse(cartograph(['show', 'Command.Execute', '--json']).stdout);
  assert.equal(shown[0].node.id, 'command.go#Command.Execute');
  assert.ok(shown[0].incoming.some((e: { kind: string; id: string }) => e.kind === 'HAS_METHOD' && e.id === 'command.go#Command'));

  // A method of *Command declared in flag_groups.go belongs to command.go's Command.
  const method = JSON.parse(cartograph(['show', 'Command.ValidateFlagGroups', '--json']).stdout);
  assert.equal(method[0].node.id, 'flag_groups.go#Command.ValidateFlagGroups');
  assert.equal(method[0].node.qname, 'github.com/spf13/cobra.Command.ValidateFlagGroups');
  assert.ok(method[0].incoming.some((e: { kind: string; id: string }) => e.kind === 'HAS_METHOD' && e.id === 'command.go#Command'));
  assert.ok(method[0].outgoing.some((e: { kind: string; id: string }) => e.kind === 'CALLS' && e.id === 'flag_groups.go#processFlagForGroupAnnotation'));

  const pflag = JSON.parse(cartograph(['show', 'Command.flags', '--json']).stdout);
  assert.equal(pflag[0].node.kind, 'Field');
  assert.ok(pflag[0].outgoing.some((e: { id: string }) => e.id === 'ext:go:github.com/spf13/pflag.FlagSet'), JSON.stringify(pflag[0].outgoing));
});
