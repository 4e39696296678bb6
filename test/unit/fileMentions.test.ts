// Files a question names (issue 34): by path (a traceback's too), by dotted module name, by the
// module's own name; a top-level package and generic module names name nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FileMentions, MENTION_WEIGHTS } from '../../src/core/search/fileMentions';

// Paths of SymPy 1.11's tree (Debian python3-sympy).
const SYMPY = ['sympy/__init__.py', 'sympy/core/basic.py', 'sympy/core/numbers.py', 'sympy/printing/latex.py', 'sympy/parsing/latex/__init__.py', 'sympy/printing/pretty/pretty.py', 'sympy/utilities/misc.py', 'sympy/polys/polytools.py', 'sympy/solvers/ode/ode.py', 'sympy/solvers/ode/single.py'];
const mentions = new FileMentions(SYMPY);
const named = (text: string) => Object.fromEntries(mentions.mentioned(text));

test('a traceback path names its file, whatever prefix the reporter\'s install adds', () => {
  const text = 'Traceback (most recent call last):\n  File "/usr/lib/python3/site-packages/sympy/core/basic.py", line 1031, in subs\n    rv = rv._subs(old, new, **kwargs)';
  assert.deepEqual(named(text), { 'sympy/core/basic.py': MENTION_WEIGHTS.path });
});

test('a dotted name names the longest module it starts with; the top-level package names nothing', () => {
  assert.deepEqual(named('`sympy.polys.polytools.Poly` and sympy.Symbol'), { 'sympy/polys/polytools.py': MENTION_WEIGHTS.module });
  assert.deepEqual(named('from sympy.parsing.latex import parse_latex'), { 'sympy/parsing/latex/__init__.py': MENTION_WEIGHTS.module });
});

test('a module\'s own name said as a word names it, at a lower weight; a generic one names nothing', () => {
  assert.deepEqual(named('LaTeX printer inconsistent with pretty printer'), { 'sympy/printing/latex.py': MENTION_WEIGHTS.name, 'sympy/printing/pretty/pretty.py': MENTION_WEIGHTS.name });
  assert.deepEqual(named('the ode solver'), { 'sympy/solvers/ode/ode.py': MENTION_WEIGHTS.name });
  // `misc` is too generic a module name to be meant as one.
  assert.deepEqual(named('misc fixes'), {});
});

test('a bare file name matches every file of that name, split between them', () => {
  const two = new FileMentions(['a/utils/io.py', 'b/io.py']);
  assert.deepEqual(Object.fromEntries(two.mentioned('see io.py')), { 'a/utils/io.py': MENTION_WEIGHTS.path / 2, 'b/io.py': MENTION_WEIGHTS.path / 2 });
  assert.deepEqual(Object.fromEntries(two.mentioned('see utils/io.py')), { 'a/utils/io.py': MENTION_WEIGHTS.path });
});
