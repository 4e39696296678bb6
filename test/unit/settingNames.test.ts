// Renamed settings: the old keys stay declared (deprecated, pointing at the new key) so existing
// settings files still validate and read, the new keys carry what the old ones did, and a renamed
// setting is read from its old key only while the new key is set nowhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readRenamed, RENAMED_SETTINGS, type ReadableConfig } from '../../src/extension/settingNames';

const pkg = require('../../package.json');
const properties: Record<string, Record<string, unknown>> = Object.assign({}, ...pkg.contributes.configuration.map((s: { properties: object }) => s.properties));

test('every renamed setting: the new key is declared with the old schema, the old one deprecated in its favour', () => {
  assert.ok(RENAMED_SETTINGS.length > 0);
  for (const { from, to } of RENAMED_SETTINGS) {
    const now = properties[`cartograph.${to}`];
    const old = properties[`cartograph.${from}`];
    assert.ok(now, `cartograph.${to} is declared`);
    assert.ok(old, `cartograph.${from} is still declared`);
    assert.ok(!now.deprecationMessage && !now.markdownDeprecationMessage, `cartograph.${to} is not deprecated`);
    assert.match(String(old.markdownDeprecationMessage), new RegExp(`#cartograph\\.${to.replace('.', '\\.')}#`));
    assert.match(String(old.deprecationMessage), new RegExp(`cartograph\\.${to.replace('.', '\\.')}`));
    for (const field of ['type', 'default', 'minimum', 'maximum', 'enum', 'pattern']) assert.deepEqual(old[field], now[field], `${from} and ${to} agree on ${field}`);
  }
});

test('no title in the Settings UI reads "Llm" or "Mmr": no declared key but a deprecated one has those words', () => {
  const titled = Object.entries(properties).filter(([, p]) => !p.deprecationMessage).map(([key]) => key);
  assert.deepEqual(titled.filter((key) => /\.llm\.|mmr/i.test(key)), []);
});

/** A settings stand-in: values per key and place, defaults for the declared keys. */
function config(values: Record<string, { globalValue?: unknown; workspaceValue?: unknown }>): ReadableConfig {
  const effective = (key: string) => values[key]?.workspaceValue ?? values[key]?.globalValue;
  return {
    get: <T>(key: string, fallback: T) => (effective(key) as T | undefined) ?? (properties[`cartograph.${key}`]?.default as T | undefined) ?? fallback,
    inspect: (key: string) => values[key] ?? {},
  };
}

test('a renamed setting reads the new key, or the old key while only it is set, else the default', () => {
  assert.equal(readRenamed(config({}), 'completion.timeout', 0), 10000, 'the default');
  assert.equal(readRenamed(config({ 'llm.timeoutMs': { globalValue: 2000 } }), 'completion.timeout', 0), 2000, 'an old value not moved yet');
  assert.equal(readRenamed(config({ 'llm.timeoutMs': { workspaceValue: 2000 }, 'completion.timeout': { globalValue: 3000 } }), 'completion.timeout', 0), 3000, 'the new key wins wherever it is set');
  assert.equal(readRenamed(config({ 'llm.model': { globalValue: 'old' } }), 'completion.endpoint', ''), '', 'another key is not read');
  assert.equal(readRenamed(config({ 'completion.enabled': { globalValue: false } }), 'completion.enabled', true), false, 'a key never renamed reads as is');
});
