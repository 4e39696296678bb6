// API keys tied to their endpoint's origin: a key set for one server is never handed out for another,
// a changed endpoint setting finds no key, and the legacy single key goes to the endpoint configured
// when it is migrated — or nowhere.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { endpointOrigin, isKeyName, keyFor, LEGACY_KEY_NAMES, migrateLegacyKey, secretName, type SecretMap } from '../../src/extension/endpointKeys';

/** SecretStorage stand-in: a map the tests can look into. */
class FakeSecrets implements SecretMap {
  readonly values = new Map<string, string>();
  async get(name: string) {
    return this.values.get(name);
  }
  async store(name: string, value: string) {
    this.values.set(name, value);
  }
  async delete(name: string) {
    this.values.delete(name);
  }
}

test('origins: default ports written out, paths and trailing slashes ignored, host case folded', () => {
  assert.equal(endpointOrigin('https://api.openai.com/v1'), 'https://api.openai.com:443');
  assert.equal(endpointOrigin('https://API.OpenAI.com:443/v1/'), 'https://api.openai.com:443');
  assert.equal(endpointOrigin('HTTP://127.0.0.1:80'), 'http://127.0.0.1:80');
  assert.equal(endpointOrigin('  http://127.0.0.1:11434/v1///  '), 'http://127.0.0.1:11434');
  assert.equal(endpointOrigin('http://[::1]:8080/v1'), 'http://[::1]:8080');
  // The user-info part is not part of the server's identity.
  assert.equal(endpointOrigin('http://user:pw@host:8080/v1'), 'http://host:8080');
});

test('origins: scheme, port and host name each make a different origin; localhost is not 127.0.0.1', () => {
  const origins = ['http://localhost:8080/v1', 'http://127.0.0.1:8080/v1', 'https://localhost:8080/v1', 'http://localhost:8081/v1', 'http://localhost/v1'].map(endpointOrigin);
  assert.equal(new Set(origins).size, origins.length, origins.join(', '));
});

test('origins: nothing that cannot be sent to has one', () => {
  for (const url of ['', '127.0.0.1:8080/v1', 'localhost:8080', 'ftp://host/v1', 'file:///tmp/x', 'not a url']) assert.equal(endpointOrigin(url), undefined, url);
});

test('a key set for origin A is not returned for origin B, nor for another use of A', async () => {
  const secrets = new FakeSecrets();
  await secrets.store(secretName('completion', endpointOrigin('http://127.0.0.1:8080')!), 'sk-a');
  assert.equal(await keyFor(secrets, 'completion', 'http://127.0.0.1:8080/v1'), 'sk-a');
  assert.equal(await keyFor(secrets, 'completion', 'HTTP://127.0.0.1:8080/'), 'sk-a', 'the same origin written differently');
  for (const other of ['http://127.0.0.1:8081/v1', 'http://localhost:8080/v1', 'https://127.0.0.1:8080/v1', 'http://127.0.0.1/v1', '127.0.0.1:8080/v1', '']) {
    assert.equal(await keyFor(secrets, 'completion', other), undefined, other);
  }
  assert.equal(await keyFor(secrets, 'embedding', 'http://127.0.0.1:8080/v1'), undefined, 'the embedding key is its own');
});

test('changing the endpoint from A to B yields no key; back to A yields A\'s again', async () => {
  const secrets = new FakeSecrets();
  let endpoint = 'https://a.example.com/v1';
  await secrets.store(secretName('completion', endpointOrigin(endpoint)!), 'sk-a');
  assert.equal(await keyFor(secrets, 'completion', endpoint), 'sk-a');
  endpoint = 'https://b.example.com/v1';
  assert.equal(await keyFor(secrets, 'completion', endpoint), undefined);
  endpoint = 'https://a.example.com/v2';
  assert.equal(await keyFor(secrets, 'completion', endpoint), 'sk-a');
});

test('key names: a change event is told apart by use, and the legacy names are not key names', () => {
  const name = secretName('embedding', 'http://h:1');
  assert.ok(isKeyName('embedding', name));
  assert.ok(!isKeyName('completion', name));
  for (const legacy of Object.values(LEGACY_KEY_NAMES)) assert.ok(!isKeyName('completion', legacy) && !isKeyName('embedding', legacy), legacy);
});

test('migration binds the legacy key to the endpoint configured at migration time only', async () => {
  const secrets = new FakeSecrets();
  await secrets.store(LEGACY_KEY_NAMES.completion, 'sk-old');
  assert.deepEqual(await migrateLegacyKey(secrets, 'completion', 'http://127.0.0.1:8080/v1'), { kind: 'bound', origin: 'http://127.0.0.1:8080' });
  assert.equal(secrets.values.has(LEGACY_KEY_NAMES.completion), false, 'the legacy name is gone');
  assert.equal(await keyFor(secrets, 'completion', 'http://127.0.0.1:8080/v1'), 'sk-old');
  // The endpoint changes after the migration; migrating again (every activation does) moves nothing.
  assert.deepEqual(await migrateLegacyKey(secrets, 'completion', 'https://elsewhere.example.com/v1'), { kind: 'none' });
  assert.equal(await keyFor(secrets, 'completion', 'https://elsewhere.example.com/v1'), undefined);
  assert.deepEqual([...secrets.values.keys()], [secretName('completion', 'http://127.0.0.1:8080')]);
});

test('migration with no usable endpoint drops the legacy key: no later endpoint gets it', async () => {
  for (const configured of [undefined, '', '127.0.0.1:8080/v1']) {
    const secrets = new FakeSecrets();
    await secrets.store(LEGACY_KEY_NAMES.embedding, 'sk-old');
    assert.deepEqual(await migrateLegacyKey(secrets, 'embedding', configured), { kind: 'dropped' }, String(configured));
    assert.equal(secrets.values.size, 0, 'nothing kept aside');
    assert.equal(await keyFor(secrets, 'embedding', 'http://127.0.0.1:8080/v1'), undefined);
  }
});

test('migration keeps a key already set for the origin (an interrupted migration) and still removes the legacy one', async () => {
  const secrets = new FakeSecrets();
  const name = secretName('completion', 'https://a.example.com:443');
  await secrets.store(name, 'sk-new');
  await secrets.store(LEGACY_KEY_NAMES.completion, 'sk-old');
  assert.deepEqual(await migrateLegacyKey(secrets, 'completion', 'https://a.example.com/v1'), { kind: 'kept', origin: 'https://a.example.com:443' });
  assert.deepEqual([...secrets.values], [[name, 'sk-new']]);
});

test('migration of one use leaves the other use\'s legacy key alone', async () => {
  const secrets = new FakeSecrets();
  await secrets.store(LEGACY_KEY_NAMES.completion, 'sk-completion');
  await secrets.store(LEGACY_KEY_NAMES.embedding, 'sk-embedding');
  await migrateLegacyKey(secrets, 'completion', 'http://h:1/v1');
  assert.equal(secrets.values.get(LEGACY_KEY_NAMES.embedding), 'sk-embedding');
  await migrateLegacyKey(secrets, 'embedding', 'http://h:1/v1');
  assert.equal(await keyFor(secrets, 'completion', 'http://h:1/v1'), 'sk-completion');
  assert.equal(await keyFor(secrets, 'embedding', 'http://h:1/v1'), 'sk-embedding');
});
