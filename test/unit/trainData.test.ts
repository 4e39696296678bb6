// The pure parts of `npm run train:data` (train/data/) on real snippets: license checks on Debian
// copyright files and package.json, docstring summaries and the trivial-docstring filter, the
// normalised-code hash used to find copies of evaluation functions, the exclusion rule and the split.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarise, trivialReason } from '../../train/data/docstrings';
import { evaluationReason, isLibraryPath } from '../../train/data/exclusions';
import { checkDebianCopyright, checkDebianCopyrightFiles, checkNpmLicense, licenseFamily, patternCovers } from '../../train/data/licenses';
import { normalisedTokens } from '../../train/data/normalise';
import { functionsOf, tripleSlashDoc } from '../../train/data/pairs';
import { validationPackages } from '../../train/data/split';
import { pool } from './helpers';

// python3-attr 22.2.0-1, usr/share/doc/python3-attr/copyright (license texts shortened).
const ATTR_COPYRIGHT = `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: attrs
Source: https://attrs.readthedocs.org/

Files: *
Copyright: 2015, Hynek Schlawack and the attrs contributors
License: Expat

Files: debian/*
Copyright: 2015, Tristan Seligmann <mithrandi@debian.org>
License: Expat

License: Expat
 The MIT License (MIT)
 .
 Permission is hereby granted, free of charge, to any person obtaining a copy
`;

test('a DEP-5 copyright file is accepted only when every upstream stanza is permissive', () => {
  const attr = checkDebianCopyright(ATTR_COPYRIGHT);
  assert.equal(attr.ok, true, attr.reason);
  assert.deepEqual(attr.families, ['MIT']);
  // GPL packaging (debian/*) does not matter: we never read debian/.
  const gplPackaging = ATTR_COPYRIGHT.replace('Tristan Seligmann <mithrandi@debian.org>\nLicense: Expat', 'Tristan Seligmann <mithrandi@debian.org>\nLicense: GPL-2+');
  assert.equal(checkDebianCopyright(gplPackaging).ok, true);
  // One upstream stanza under a license outside the list refuses the package (python3-markdown's etree13 case).
  const mixed = `${ATTR_COPYRIGHT}\nFiles: markdown/extensions/*\n  markdown/util.py\nCopyright: 2008 Fredrik Lundh\nLicense: etree13\n`;
  const refused = checkDebianCopyright(mixed);
  assert.equal(refused.ok, false);
  assert.match(refused.reason, /etree13/);
  // Dual licensing with a permissive alternative is fine; a conjunction with GPL is not.
  assert.equal(checkDebianCopyright(ATTR_COPYRIGHT.replace('License: Expat\n\nFiles: debian', 'License: GPL-2+ or Apache-2.0\n\nFiles: debian')).ok, true);
  assert.equal(checkDebianCopyright(ATTR_COPYRIGHT.replace('License: Expat\n\nFiles: debian', 'License: BSD-3-clause and GPL-2\n\nFiles: debian')).ok, false);
  // Free-form copyright files are refused, not guessed.
  assert.match(checkDebianCopyright('This package was debianized by someone.\nIt is MIT licensed.\n').reason, /machine-readable/);
});

// python3-pandas 1.5.3+dfsg-2, usr/share/doc/python3-pandas/copyright (stanzas shortened, texts left out).
const PANDAS_COPYRIGHT = `Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: pandas

Files: *
Copyright: 2008-2011 AQR Capital Management, LLC
License: BSD-3

Files: pandas/_libs/src/klib/*
Copyright: 2008, 2009, 2011 by Attractive Chaos
License: Expat

Files: pandas/core/accessor.py
Copyright: 2014 Uber Technologies
License: Apache-2.0 and BSD-3

Files: pandas/tests/io/data/html/banklist.html
  pandas/tests/io/data/csv/banklist.csv
Copyright: Federal Deposit Insurance Corporation
License: public-domain

Files: pandas/io/formats/style_render.py
Copyright: made up for this test: a module under a license outside the list
License: GPL-3+

Files: debian/*
Copyright: 2011-2018, Yaroslav Halchenko
License: GPL-2+
`;

test('per-file reading: a file is read only when every stanza that covers it is permissive', () => {
  // The package-level reading refuses pandas for its public-domain test data (and here a GPL module).
  assert.equal(checkDebianCopyright(PANDAS_COPYRIGHT).ok, false);
  const files = ['pandas/core/frame.py', 'pandas/core/accessor.py', 'pandas/io/formats/style_render.py', 'pandas/io/formats/style.py'];
  const check = checkDebianCopyrightFiles(PANDAS_COPYRIGHT, files);
  assert.equal(check.ok, true, check.reason);
  assert.deepEqual(check.admitted, ['pandas/core/frame.py', 'pandas/core/accessor.py', 'pandas/io/formats/style.py']);
  assert.deepEqual(check.refused, ['pandas/io/formats/style_render.py'], 'the GPL stanza covers this module although `*` is BSD');
  assert.deepEqual(check.refusedLicenses, ['GPL-3+']);
  assert.deepEqual(check.licenses, ['BSD-3', 'Apache-2.0 and BSD-3'], 'the licenses of the files admitted, not of the refused ones');
  // Stricter than DEP-5's "last paragraph wins": a later permissive stanza does not rescue a file a
  // non-permissive one also names.
  const overridden = `${PANDAS_COPYRIGHT}\nFiles: pandas/io/formats/*\nCopyright: x\nLicense: BSD-3\n`;
  assert.deepEqual(checkDebianCopyrightFiles(overridden, files).refused, ['pandas/io/formats/style_render.py']);
  // A non-permissive catch-all refuses everything, and so does a file no stanza covers.
  const catchAllGpl = PANDAS_COPYRIGHT.replace('Files: *\nCopyright: 2008-2011 AQR Capital Management, LLC\nLicense: BSD-3', 'Files: *\nCopyright: x\nLicense: GPL-2+');
  assert.equal(checkDebianCopyrightFiles(catchAllGpl, files).ok, false);
  const noCatchAll = PANDAS_COPYRIGHT.replace('Files: *\n', 'Files: pandas/core/*\n');
  assert.deepEqual(checkDebianCopyrightFiles(noCatchAll, files).admitted, ['pandas/core/frame.py', 'pandas/core/accessor.py']);
  assert.match(checkDebianCopyrightFiles('Free-form text, MIT.\n', files).reason, /machine-readable/);
});

test('a Files: pattern is matched against installed paths, also below the source tree\'s own folder', () => {
  // matplotlib's source keeps the package under lib/: the stanza still covers the installed module.
  assert.equal(patternCovers('lib/matplotlib/sankey.py', 'matplotlib/sankey.py'), true);
  assert.equal(patternCovers('src/pint/*', 'pint/util.py'), true);
  assert.equal(patternCovers('*', 'pint/util.py'), true);
  assert.equal(patternCovers('*/_vendor/*', 'pkg/_vendor/six.py'), true);
  assert.equal(patternCovers('pandas/_libs/src/parser/tokenizer.*', 'pandas/_libs/src/parser/tokenizer.py'), true);
  // Files outside the installed tree cover nothing we read.
  assert.equal(patternCovers('doc/*', 'pint/util.py'), false);
  assert.equal(patternCovers('cextern/wcslib/*', 'astropy/wcs/wcs.py'), false);
  assert.equal(patternCovers('pandas/core/frame.py', 'pandas/core/frame.pyi'), false);
  assert.equal(patternCovers('pandas/io/*.py', 'pandas/io/x_py'), false, '`.` is literal');
});

test('license short names map to the five permissive families and nothing else', () => {
  assert.equal(licenseFamily('Expat'), 'MIT');
  assert.equal(licenseFamily('BSD-3-clause'), 'BSD');
  assert.equal(licenseFamily('Apache-2'), 'Apache-2.0');
  assert.equal(licenseFamily('Apache-2.0'), 'Apache-2.0');
  assert.equal(licenseFamily('PSF-2'), 'PSF');
  assert.equal(licenseFamily('ISC'), 'ISC');
  assert.equal(licenseFamily('PSFLv2'), 'PSF');
  assert.equal(licenseFamily('Expat-and-Amazon-License'), null, 'python3-boto: a compound name is refused');
  for (const other of ['GPL-2+', 'LGPL-2.1', 'MPL-2.0', 'Apache-1.1', 'HPND', 'public-domain', 'BSL-1.0']) assert.equal(licenseFamily(other), null, other);
});

test('npm licenses come from package.json and must be permissive', () => {
  assert.equal(checkNpmLicense({ license: 'MIT' }).ok, true);
  assert.equal(checkNpmLicense({ license: '(MIT OR Apache-2.0)' }).ok, true);
  // libp2p, helia, multiformats and the other aegir-built packages write it this way round, unparenthesised
  assert.deepEqual(checkNpmLicense({ license: 'Apache-2.0 OR MIT' }).families, ['Apache-2.0']);
  assert.equal(checkNpmLicense({ license: 'MPL-2.0 OR GPL-3.0' }).ok, false);
  assert.equal(checkNpmLicense({ licenses: [{ type: 'BSD-2-Clause' }] }).ok, true);
  assert.equal(checkNpmLicense({ license: 'GPL-3.0-only' }).ok, false);
  assert.match(checkNpmLicense({}).reason, /no license/);
});

test('docstring summaries: first paragraph and sentence, markup reduced to words', () => {
  // python3-attr 22.2.0, attr/_config.py set_run_validators (as cleaned by the extractor)
  const attr = summarise('Set whether or not validators are run.  By default, they are run.\n\n.. deprecated:: 21.3.0 It will not be removed, but it also will not be\n    moved to new ``attrs`` namespace.');
  assert.equal(attr.sentence, 'Set whether or not validators are run.');
  assert.equal(attr.paragraph, 'Set whether or not validators are run. By default, they are run.');
  // networkx-style RST roles and a numpydoc section
  const nx = summarise('Returns the :func:`~networkx.density` of ``G`` as a float.\n\nParameters\n----------\nG : graph');
  assert.equal(nx.sentence, 'Returns the networkx.density of G as a float.');
  // JSDoc inline links keep their label (or target)
  assert.equal(summarise('Creates an {@link Observable} from a {@link Promise promise-like}.\n@param x').sentence, 'Creates an Observable from a promise-like.');
  // ethers 6.17.0 Mnemonic.phraseToEntropy marks parameters with %%
  assert.equal(summarise('Returns the entropy for %%phrase%%.').sentence, 'Returns the entropy for phrase.');
  // redux 5.0.1 isPlainObject: its JSDoc is tags only, so there is no summary
  assert.equal(summarise('@param obj The object to inspect.\n@returns True if the argument appears to be a plain object.').sentence, '');
});

test('trivial docstrings are filtered with a reason', () => {
  assert.equal(trivialReason('Set whether or not validators are run.'), null);
  assert.equal(trivialReason(''), 'short');
  assert.equal(trivialReason('Constructor.'), 'short');
  assert.equal(trivialReason('TODO: write the docs for this'), 'placeholder');
  assert.equal(trivialReason('Auto-generated by protoc, do not edit.'), 'boilerplate');
  assert.equal(trivialReason('See the base class for details.'), 'boilerplate');
  assert.equal(trivialReason('Deprecated since 3.0, use frobnicate instead.'), 'boilerplate');
  assert.equal(trivialReason('>>> f(x) == g(y, z) + 1'), 'not prose');
  assert.equal(trivialReason(`${'word '.repeat(90)}end.`), 'long');
});

// python3-attr 22.2.0, attr/_config.py
const SET_RUN_VALIDATORS = `def set_run_validators(run):
    """
    Set whether or not validators are run.  By default, they are run.
    """
    if not isinstance(run, bool):
        raise TypeError("'run' must be bool.")
    global _run_validators
    _run_validators = run
`;

test('the normalised hash ignores docstrings, comments, layout, quotes and naming case, and sees real changes', async () => {
  const hashOf = async (src: string, language: 'python' | 'typescript' = 'python') => {
    const fns = await functionsOf(pool, language === 'python' ? 'x.py' : 'x.ts', language, src);
    assert.equal(fns.length, 1, src);
    return fns[0].hash;
  };
  const base = await hashOf(SET_RUN_VALIDATORS);
  const changed = `def set_run_validators(run):  # a copy
    """Other words."""
    if not isinstance( run, bool ):
        # comment
        raise TypeError('\\'run\\' must be bool.'.replace('\\\\', ''))
    global _run_validators
    _run_validators = run
`;
  assert.notEqual(await hashOf(changed), base, 'a changed expression must change the hash');
  const sameCode = `def setRunValidators(run):
    # no docstring here
    if not isinstance(run, bool): raise TypeError("'run' must be bool.")
    global _runValidators
    _runValidators = run
`;
  assert.equal(await hashOf(sameCode), base);
  assert.notEqual(await hashOf(SET_RUN_VALIDATORS.replace('bool)', 'int)')), base);

  // redux 5.0.1 src/utils/isPlainObject.ts, with and without JSDoc, semicolons and trailing commas.
  const redux = `/**\n * @param obj The object to inspect.\n */\nexport default function isPlainObject(obj: any): obj is object {\n  if (typeof obj !== 'object' || obj === null) return false\n\n  let proto = obj\n  while (Object.getPrototypeOf(proto) !== null) {\n    proto = Object.getPrototypeOf(proto)\n  }\n\n  return (\n    Object.getPrototypeOf(obj) === proto || Object.getPrototypeOf(obj) === null\n  )\n}\n`;
  const reduxFormatted = `export default function isPlainObject(obj: any): obj is object {\n  if (typeof obj !== "object" || obj === null) return false;\n  let proto = obj;\n  while (Object.getPrototypeOf(proto,) !== null) { proto = Object.getPrototypeOf(proto); }\n  return (Object.getPrototypeOf(obj) === proto || Object.getPrototypeOf(obj) === null);\n}\n`;
  assert.equal(await hashOf(redux, 'typescript'), await hashOf(reduxFormatted, 'typescript'));
});

test('pairs carry the code without its docstring, dedented, and the normalised tokens skip it', async () => {
  const src = `class Config:\n    ${SET_RUN_VALIDATORS.replace(/\n(?=.)/g, '\n    ').replace('(run)', '(self, run)')}`;
  const [method] = await functionsOf(pool, 'config.py', 'python', src);
  assert.equal(method.symbol.localId, 'Config.set_run_validators');
  assert.ok(!method.code.includes('Set whether'), method.code);
  assert.ok(method.code.startsWith('def set_run_validators(self, run):\n    if not isinstance(run, bool):'), method.code);
  const parser = await pool.parser('python');
  const tree = parser.parse(SET_RUN_VALIDATORS)!;
  const tokens = normalisedTokens(tree.rootNode);
  tree.delete();
  assert.ok(!tokens.some((t) => t.includes('Set whether')));
  assert.ok(tokens.includes('setrunvalidators') && tokens.includes('isinstance'));
  assert.equal(tokens.filter((t) => t === '"').length, 2, 'one string left, its quotes unified');
});

test('TypeScript `///` comments above a definition are its documentation (ProseMirror style), `@internal` ones are not', async () => {
  // prosemirror-state 1.4.4 src/state.ts (shortened)
  const src = [
    'export class EditorState {',
    '  /// @internal',
    '  constructor(readonly config: Configuration) {}',
    '',
    '  /// The plugins that are active in this state.',
    '  get plugins(): readonly Plugin[] {',
    '    return this.config.plugins',
    '  }',
    '',
    '  /// Apply the given transaction to produce a new state.',
    '  apply(tr: Transaction): EditorState {',
    '    return this.applyTransaction(tr).state',
    '  }',
    '',
    '  // Not documentation: two slashes.',
    '  toJSON(): any { return {} }',
    '',
    '  /// Verbose variant of [`apply`](#state.EditorState.apply) that',
    '  /// returns the precise transactions that were applied.',
    '  applyTransaction(rootTr: Transaction): { state: EditorState } {',
    '    return { state: this }',
    '  }',
    '}',
  ].join('\n');
  const docs = Object.fromEntries((await functionsOf(pool, 'state.ts', 'typescript', src)).map((f) => [f.symbol.name, f.doc]));
  assert.equal(docs.constructor, '');
  assert.equal(docs.apply, 'Apply the given transaction to produce a new state.');
  assert.equal(docs.toJSON, '');
  assert.equal(docs.applyTransaction, 'Verbose variant of [`apply`](#state.EditorState.apply) that\nreturns the precise transactions that were applied.');
  assert.equal(summarise(docs.applyTransaction).sentence, 'Verbose variant of apply that returns the precise transactions that were applied.');
  assert.equal(tripleSlashDoc(['//// a divider', 'f()'], 1), '', 'four slashes are not a doc comment');
});

test('evaluation code is held out by rule, including packages named after it', () => {
  for (const name of ['python3-django', 'python3-django-filters', 'python3-djangorestframework', 'python3-sqlalchemy-utils', 'python3-jinja2', 'python3-flask', 'python3-numpy', 'python3-scipy', 'python3-pygments', 'python3-docutils']) {
    assert.ok(evaluationReason({ kind: 'debian', name }), name);
  }
  assert.ok(evaluationReason({ kind: 'npm', name: 'rxjs' }));
  assert.match(evaluationReason({ kind: 'debian', name: 'python3-rx' }) ?? '', /port of the bench:search dev corpus rxjs/);
  for (const name of ['python3-attr', 'python3-httpx', 'python3-marshmallow']) assert.match(evaluationReason({ kind: 'debian', name }) ?? '', /bench:context/, name);
  assert.ok(evaluationReason({ kind: 'npm', name: 'mobx' }));
  assert.equal(evaluationReason({ kind: 'debian', name: 'python3-flask-sqlalchemy' }), null, 'flask is held out by exact name');
  assert.equal(evaluationReason({ kind: 'debian', name: 'python3-networkx' }), null);
  assert.equal(evaluationReason({ kind: 'debian', name: 'python3-numpydoc' }), null);
});

test('only a package\'s own library files are read: no tests, vendored copies or declarations', () => {
  assert.equal(isLibraryPath('networkx/algorithms/cycles.py'), true);
  assert.equal(isLibraryPath('networkx/algorithms/tests/test_cycles.py'), false);
  assert.equal(isLibraryPath('pip/_vendor/requests/api.py'), false);
  assert.equal(isLibraryPath('src/query.test.ts'), false);
  assert.equal(isLibraryPath('dist/index.d.ts'), false);
  assert.equal(isLibraryPath('conftest.py'), false);
});

test('the validation split is by package, seeded, per language and deterministic', () => {
  const packages = [
    ...Array.from({ length: 30 }, (_, i) => ({ name: `python3-p${i}`, language: 'python' })),
    ...Array.from({ length: 10 }, (_, i) => ({ name: `ts-${i}`, language: 'typescript' })),
  ];
  const a = validationPackages(packages, 'seed-1', 0.1);
  assert.deepEqual([...a].sort(), [...validationPackages([...packages].reverse(), 'seed-1', 0.1)].sort(), 'order of the input does not matter');
  assert.equal([...a].filter((n) => n.startsWith('python3-')).length, 3);
  assert.equal([...a].filter((n) => n.startsWith('ts-')).length, 1);
  assert.notDeepEqual([...a].sort(), [...validationPackages(packages, 'seed-2', 0.1)].sort());
  assert.equal(validationPackages([{ name: 'only', language: 'python' }], 's', 0.5).size, 0, 'a lone package stays in training');
});
