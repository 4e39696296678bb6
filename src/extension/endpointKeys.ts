// API keys tied to the server they were set for. A key is stored under the origin (scheme://host:port)
// of the endpoint it was set for and looked up by the origin of the endpoint configured now, so an
// endpoint setting that changes — by the user, or by a repository's .vscode/settings.json — never
// receives a key that was meant for another server. No `vscode` import: unit-tested with a plain map.

/**
 * Who a key is for. Completion and lifting (describe) share one: both talk to
 * `cartograph.completion.endpoint`. The embedding endpoint has its own, even on the same origin, so
 * that the two Set … API Key commands stay independent and each legacy key has one place to go.
 */
export type KeyUse = 'completion' | 'embedding';

/** What is used of VS Code's SecretStorage. */
export interface SecretMap {
  get(name: string): PromiseLike<string | undefined>;
  store(name: string, value: string): PromiseLike<void>;
  delete(name: string): PromiseLike<void>;
}

/** The names before keys were tied to origins: one key, sent to whatever endpoint was configured. */
export const LEGACY_KEY_NAMES: Readonly<Record<KeyUse, string>> = {
  completion: 'cartograph.llm.apiKey',
  embedding: 'cartograph.embedding.apiKey',
};

const PREFIX = 'cartograph.apiKey.';

/**
 * The origin of an endpoint URL as `scheme://host:port`, the default port written out so that
 * `https://h` and `https://h:443/v1/` are one origin; undefined when the URL cannot be sent to (no
 * http(s) scheme, no host). Host names are compared as the URL parser normalises them (lower case,
 * punycode); `localhost` and `127.0.0.1` stay different origins, as they are for a browser.
 */
export function endpointOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) return undefined;
  return `${parsed.protocol}//${parsed.hostname}:${parsed.port || (parsed.protocol === 'https:' ? '443' : '80')}`;
}

/** The SecretStorage name of `use`'s key for `origin`. */
export function secretName(use: KeyUse, origin: string): string {
  return `${PREFIX}${use}:${origin}`;
}

/** Whether a SecretStorage name (from a change event) holds one of `use`'s keys. */
export function isKeyName(use: KeyUse, name: string): boolean {
  return name.startsWith(`${PREFIX}${use}:`);
}

/** The key to send to `endpoint`: only one set for its origin; none for an endpoint without one. */
export async function keyFor(secrets: SecretMap, use: KeyUse, endpoint: string): Promise<string | undefined> {
  const origin = endpointOrigin(endpoint);
  return origin ? secrets.get(secretName(use, origin)) : undefined;
}

/** What the server's refusal means when no key was sent: which origin needs one. */
export function missingKeyText(origin: string): string {
  return `no API key is set for ${origin}`;
}

export type Migration =
  | { kind: 'none' }
  /** The legacy key now belongs to `origin`. */
  | { kind: 'bound'; origin: string }
  /** `origin` already had a key of its own (a migration interrupted after storing it): that one stays. */
  | { kind: 'kept'; origin: string }
  /** No endpoint to tie it to: the key was deleted, the user must set it again. */
  | { kind: 'dropped' };

/**
 * Moves `use`'s legacy key to the origin of `userEndpoint`, the endpoint in the user's own settings
 * now, at the first activation after the upgrade. Workspace values are not passed in: a repository
 * the user opens could otherwise choose where the key goes. With no usable endpoint the key is
 * dropped rather than kept for whichever endpoint comes next, which could be one it was never for.
 * The legacy name is deleted last, so an interrupted migration runs again at the next activation.
 */
export async function migrateLegacyKey(secrets: SecretMap, use: KeyUse, userEndpoint: string | undefined): Promise<Migration> {
  const legacy = await secrets.get(LEGACY_KEY_NAMES[use]);
  if (legacy === undefined) return { kind: 'none' };
  const origin = endpointOrigin(userEndpoint ?? '');
  let outcome: Migration = { kind: 'dropped' };
  if (origin) {
    const name = secretName(use, origin);
    const kept = (await secrets.get(name)) !== undefined;
    if (!kept) await secrets.store(name, legacy);
    outcome = { kind: kept ? 'kept' : 'bound', origin };
  }
  await secrets.delete(LEGACY_KEY_NAMES[use]);
  return outcome;
}
