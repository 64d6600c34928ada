// The server's JSON API as the page uses it: the same routes and keys as any client
// (docs/server.md, docs/console.md). The key lives in this tab's sessionStorage only; it is
// sent as a Bearer token and never written anywhere else.
const KEY = 'structure.apiKey';

// Paths are relative to the page (served at <base>ui/), so the console works behind any path
// prefix a proxy adds.
export function apiUrl(path) {
  return new URL(`../${path.replace(/^\//, '')}`, document.baseURI).toString();
}

// The server's public root as the browser sees it, for copied command lines.
export function publicRoot() {
  return new URL('..', document.baseURI).toString().replace(/\/$/, '');
}

export function getKey() {
  return sessionStorage.getItem(KEY) || '';
}

export function setKey(key) {
  if (key) sessionStorage.setItem(KEY, key);
  else sessionStorage.removeItem(KEY);
}

export class ApiError extends Error {
  constructor(status, body) {
    const msg = body && Array.isArray(body.errors) && body.errors.length
      ? body.errors.join('; ')
      : `HTTP ${status}`;
    super(msg);
    this.status = status;
    this.body = body;
  }
}

// Sends a request with the key; resolves to {status, body} for any JSON answer the caller
// expects (okStatuses), else throws ApiError. A 401 clears the key and reloads the login.
export async function call(method, path, body, okStatuses = [200]) {
  const headers = { Authorization: `Bearer ${getKey()}` };
  const init = { method, headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const res = await fetch(apiUrl(path), init);
  let parsed = null;
  if (res.status !== 204) {
    const text = await res.text();
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = { errors: [text.slice(0, 200)] };
    }
  }
  if (res.status === 401) {
    setKey('');
    window.dispatchEvent(new Event('structure-logout'));
  }
  if (!okStatuses.includes(res.status)) throw new ApiError(res.status, parsed);
  return { status: res.status, body: parsed };
}

export const get = (path) => call('GET', path).then((r) => r.body);

let infoCache = null;
export async function info() {
  if (!infoCache) infoCache = await get('v1/console/info');
  return infoCache;
}
export function forgetInfo() {
  infoCache = null;
}

// A call's cost from the server's prices (USD per million tokens, per "provider/model");
// null when no price is configured for it.
export function cost(prices, key, usage) {
  const p = prices && prices[key];
  if (!p || !usage) return null;
  const cached = usage.cachedInputTokens || 0;
  const written = usage.cacheWriteTokens || 0;
  const fresh = Math.max(0, (usage.inputTokens || 0) - cached - written);
  const m = 1e6;
  return (
    (fresh * (p.input || 0)) / m +
    (cached * (p.cachedInput ?? p.input ?? 0)) / m +
    (written * (p.cacheWrite ?? p.input ?? 0)) / m +
    ((usage.outputTokens || 0) * (p.output || 0)) / m
  );
}

export function fmtCost(c) {
  if (c === null || c === undefined) return null;
  return c < 0.01 ? `$${c.toFixed(6)}` : `$${c.toFixed(4)}`;
}
