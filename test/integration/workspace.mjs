// The multi-root workspace both integration runners open (code-server and desktop VS Code): the
// RANGER two-file example in Python, TypeScript and Go, each copied into a fresh folder per run,
// the Go one with a go.mod as a Go module has.
import * as fs from 'node:fs';
import * as path from 'node:path';

const FIXTURES = ['py', 'ts', 'go'];
const GO_MOD = 'module example.com/calc\n\ngo 1.19\n';

/** Writes the fixture folders and `fixtures.code-workspace` under `dir`; returns the workspace file. */
export function makeFixtureWorkspace(repo, dir, settings = {}) {
  for (const name of FIXTURES) fs.cpSync(path.join(repo, 'test/fixtures', `ranger-${name}`), path.join(dir, `fixture-${name}`), { recursive: true });
  fs.writeFileSync(path.join(dir, 'fixture-go', 'go.mod'), GO_MOD);
  const file = path.join(dir, 'fixtures.code-workspace');
  fs.writeFileSync(file, JSON.stringify({ folders: FIXTURES.map((name) => ({ path: `fixture-${name}` })), settings }, null, 2));
  return file;
}
