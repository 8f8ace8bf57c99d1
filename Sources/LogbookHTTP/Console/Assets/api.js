// The console's only way to the server: JSON requests and Server-Sent Events with the bearer
// token of this tab, refusals turned into ApiError with the problem's detail.

/** A signal that aborts when either does (AbortSignal.any, which older browsers lack, by hand). */
function eitherSignal(first, second) {
  const controller = new AbortController();
  for (const signal of [first, second]) {
    if (signal.aborted) controller.abort();
    else signal.addEventListener('abort', () => controller.abort(), { once: true });
  }
  return controller.signal;
}

/** A refusal or failure of the API, with the HTTP status and the problem's detail. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(`${status}: ${detail}`);
    this.status = status;
    this.detail = detail;
  }
}

/**
 * The API under `base` (this origin and the prefix the console is served under) with one bearer
 * token; every request is cancelled when `signal` aborts (the page it was made for is gone).
 */
export class Api {
  constructor(base, token, signal) {
    this.base = base;
    this.token = token;
    this.signal = signal;
  }

  headers(extra = {}) {
    return { Authorization: `Bearer ${this.token}`, Accept: 'application/json', ...extra };
  }

  async request(method, path, body) {
    const init = { method, signal: this.signal, headers: this.headers(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(this.base + path, init);
    const text = await response.text();
    if (!response.ok) {
      let detail = response.statusText;
      try { const problem = JSON.parse(text); detail = problem.detail || problem.title || detail; } catch { /* not a problem document */ }
      throw new ApiError(response.status, detail);
    }
    return text ? JSON.parse(text) : null;
  }

  get(path) { return this.request('GET', path); }
  post(path, body) { return this.request('POST', path, body); }
  delete(path) { return this.request('DELETE', path); }

  /** An SVG answer as text (charts), or null when the server has none (404). */
  async svg(path) {
    const response = await fetch(this.base + path, { signal: this.signal, headers: this.headers({ Accept: 'image/svg+xml' }) });
    if (response.status === 404) return null;
    if (!response.ok) throw new ApiError(response.status, response.statusText);
    return response.text();
  }

  /**
   * Reads Server-Sent Events from `path` (fetch, so the token goes in a header), calling
   * `onEvent({event, id, data})` for each, until `signal` (or the page's) aborts or the stream ends.
   */
  async stream(path, signal, onEvent, lastEventId) {
    const headers = this.headers({ Accept: 'text/event-stream' });
    if (lastEventId !== undefined) headers['Last-Event-ID'] = String(lastEventId);
    const both = this.signal ? eitherSignal(signal, this.signal) : signal;
    const response = await fetch(this.base + path, { headers, signal: both });
    if (!response.ok) throw new ApiError(response.status, response.statusText);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const message = { event: 'message', id: undefined, data: '' };
        for (const line of frame.split('\n')) {
          if (line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') message.event = text;
          else if (field === 'id') message.id = text;
          else if (field === 'data') message.data += (message.data ? '\n' : '') + text;
        }
        if (message.data) onEvent(message);
      }
    }
  }
}
