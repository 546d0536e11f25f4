// The public API under /api/v1/: JSON in and out, `Authorization: Token <key>`, every refusal
// {"error": {"code", "message", "details"}} turned into an ApiError.

const BASE = "/api/v1";
const SESSION_KEY = "cardtable.session";

class ApiError extends Error {
  constructor(status, body) {
    const error = (body && body.error) || {};
    super(error.message || `HTTP ${status}`);
    this.status = status;
    this.code = error.code || (status ? `http_${status}` : "network");
    this.details = error.details || {};
  }
}

// The signed-in person: {token, user: {id, username, is_guest}} kept in localStorage, so a
// refresh or a new tab finds the same seat.
export const session = {
  read() {
    try {
      return JSON.parse(localStorage.getItem(SESSION_KEY)) || null;
    } catch {
      return null;
    }
  },
  save(data) {
    localStorage.setItem(SESSION_KEY, JSON.stringify({ token: data.token, user: data.user }));
  },
  clear() {
    localStorage.removeItem(SESSION_KEY);
  },
};

async function request(method, path, { body, etag } = {}) {
  const headers = { Accept: "application/json" };
  const current = session.read();
  if (current) headers.Authorization = `Token ${current.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (etag) headers["If-None-Match"] = etag;
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    throw new ApiError(0, { error: { code: "network", message: "network" } });
  }
  if (response.status === 304) return { status: 304, data: null, etag };
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, data);
  return { status: response.status, data, etag: response.headers.get("ETag") };
}

export const api = {
  get: (path, options) => request("GET", path, options),
  post: (path, body = {}) => request("POST", path, { body }),
};
