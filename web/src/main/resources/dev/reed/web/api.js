// The coordinator's HTTP/JSON face of reed.v1 (POST /reed.v1.<Service>/<Method>, proto3 JSON
// mapping). Fields with default values are omitted by the server: read them with defaults.

/** The coordinator could not be reached at all (down, wrong URL, CORS refused). */
export class CoordinatorDown extends Error {
  constructor(url, cause) {
    super(`coordinator unreachable at ${url}${cause ? ` (${cause})` : ''}`);
    this.name = 'CoordinatorDown';
  }
}

/** The coordinator answered with an error (bad request, unknown key, rate limit, not ready). */
export class CoordinatorError extends Error {
  constructor(method, httpStatus, grpcCode, message) {
    super(`${method}: ${grpcCode || 'HTTP ' + httpStatus}${message ? ': ' + message : ''}`);
    this.name = 'CoordinatorError';
    this.httpStatus = httpStatus;
    this.grpcCode = grpcCode;
  }
}

export class ReedApi {
  /**
   * @param {string} base coordinator base URL without trailing slash, e.g. "https://reed.example"
   * @param {string} apiKey sent as x-api-key when non-empty
   * @param {number} timeoutMs per request
   */
  constructor(base, apiKey, timeoutMs = 10000) {
    this.base = base.replace(/\/+$/, '');
    this.apiKey = apiKey || '';
    this.timeoutMs = timeoutMs;
  }

  async call(service, method, body) {
    const url = `${this.base}/reed.v1.${service}/${method}`;
    const headers = {'content-type': 'application/json'};
    if (this.apiKey) headers['x-api-key'] = this.apiKey;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.timeoutMs);
    let response;
    try {
      response = await fetch(url, {method: 'POST', headers, body: JSON.stringify(body || {}),
        signal: abort.signal, credentials: 'omit', cache: 'no-store'});
    } catch (e) {
      // a browser does not say why a fetch failed: down, a wrong URL and a CORS refusal look alike
      throw new CoordinatorDown(this.base, abort.signal.aborted ? `no answer in ${this.timeoutMs} ms`
          : `${e.message}: down, a wrong URL, or not allowing this page's origin`);
    } finally {
      clearTimeout(timer);
    }
    const text = await response.text().catch(() => '');
    let json = null;
    try {
      json = text ? JSON.parse(text) : {};
    } catch (e) {
      json = null;
    }
    if (!response.ok) {
      // Armeria's unframed error body: {"code": n, "grpc-code": "NAME", "message": "..."}
      const code = json && (json['grpc-code'] || json.grpcCode) || '';
      const message = json && json.message || text.slice(0, 200);
      // a proxy in front of a dead coordinator answers 502-504: the coordinator is down all the same
      if (!json && response.status >= 502 && response.status <= 504) {
        throw new CoordinatorDown(this.base, `HTTP ${response.status}`);
      }
      throw new CoordinatorError(method, response.status, code, message);
    }
    if (json === null) throw new CoordinatorError(method, response.status, '', 'the answer is not JSON');
    return json;
  }

  listLandmarks() {
    return this.call('SnapshotService', 'ListLandmarks', {});
  }

  /** @param measurements [{endpoint: {ip, port}, rttUs}] over WebSockets */
  locate(measurements, location) {
    const body = {measurements: measurements.map(m => ({endpoint: m.endpoint, rttUs: m.rttUs, transport: 'TRANSPORT_WEBSOCKET'}))};
    if (location) body.location = location;
    return this.call('ReedService', 'Locate', body);
  }

  /**
   * @param client the coordinate from Locate, or null for the zero-probe ranking from location alone
   * @param location {latitudeDeg, longitudeDeg} or null
   * @param ignoreLocation order by the coordinate alone: the location did not fit the measured RTTs
   */
  orderedServers(client, location, filter, pageSize, pageToken, ignoreLocation) {
    // the page shows no landmark RTTs: the compact form (refs into landmarkIds) halves each page's
    // download, and a coordinator that predates it ignores the field
    const body = {pageSize, compactLandmarkRtts: true};
    if (client) body.client = client;
    if (location) body.location = location;
    if (client && location && ignoreLocation) body.ignoreLocation = true;
    if (filter && Object.keys(filter).length) body.filter = filter;
    if (pageToken) body.pageToken = pageToken;
    return this.call('ReedService', 'GetOrderedServers', body);
  }
}
