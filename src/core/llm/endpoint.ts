// What a configured endpoint URL must look like before anything is sent to it. The `openai` client
// turns a URL without a scheme (`127.0.0.1:8080/v1`) into a bare "Connection error", which tells the
// user nothing; this says what is wrong and how to write it instead.

/** Undefined when `url` is usable as an OpenAI-compatible base URL (or empty: no endpoint), else why not. */
export function endpointProblem(url: string): string | undefined {
  const text = url.trim();
  if (text === '') return undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return `"${text}" has no scheme: write it as http://${text.replace(/^\/+/, '')} (or https://…)`;
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return `"${text}" is not a valid URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `"${text}" uses ${parsed.protocol.slice(0, -1)}://; only http:// and https:// are supported`;
  if (!parsed.hostname) return `"${text}" names no host`;
  return undefined;
}
