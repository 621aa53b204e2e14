// RTT to a landmark's WebSocket beacon: the beacon echoes each small text frame verbatim over an
// open connection, so a ping's RTT excludes the TCP and TLS handshakes (the connection is opened
// first, then pinged one frame at a time; the minimum is kept).

/** Outcome of a beacon, as shown to the user and to tests. */
export const BeaconState = Object.freeze({
  PENDING: 'pending',
  OK: 'ok',
  TIMEOUT: 'timeout',     // never opened, or opened and never answered
  GARBAGE: 'garbage',     // answered something other than the echo: ignored
  FAILED: 'failed',       // refused or closed before answering
  UNUSED: 'unused',       // answered, but farther than the beacons kept
});

let nonceCounter = 0;

export class Beacon {
  /**
   * @param {string} url ws:// or wss:// URL of the beacon
   * @param {{timeoutMs: number}} options timeoutMs bounds the connection's opening and each ping
   */
  constructor(url, {timeoutMs}) {
    this.url = url;
    this.timeoutMs = timeoutMs;
    this.samples = [];        // RTTs in ms of valid echoes
    this.state = BeaconState.PENDING;
    this.note = '';
    this.sent = new Set();    // payloads sent: a late echo of an earlier ping is not garbage
    this.ws = null;
    this.waiting = null;      // {payload, resolve, t0, timer}
    this.seq = 0;
    this.closing = false;
    this.nonce = `${Date.now().toString(36)}${(nonceCounter++).toString(36)}`;
  }

  get minMs() {
    return this.samples.length ? Math.min(...this.samples) : null;
  }

  /** Opens the connection; resolves true when open, false (state set) otherwise. */
  open() {
    return new Promise(resolve => {
      let ws;
      try {
        ws = new WebSocket(this.url);
      } catch (e) {
        this.fail(BeaconState.FAILED, `bad beacon URL: ${e.message}`);
        resolve(false);
        return;
      }
      this.ws = ws;
      const timer = setTimeout(() => {
        this.fail(BeaconState.TIMEOUT, `no connection within ${this.timeoutMs} ms`);
        try { ws.close(); } catch (e) { /* already closing */ }
        resolve(false);
      }, this.timeoutMs);
      ws.onopen = () => {
        clearTimeout(timer);
        resolve(true);
      };
      ws.onerror = () => { /* onclose follows with the code */ };
      ws.onclose = event => {
        clearTimeout(timer);
        const why = `connection closed (code ${event.code}${event.reason ? ', ' + event.reason : ''})`;
        if (this.state === BeaconState.PENDING) this.fail(BeaconState.FAILED, why);
        else if (this.state === BeaconState.OK && !this.closing) this.note = `${why} after ${this.samples.length} pings`;
        if (this.waiting) this.settle(null);
        resolve(false);
      };
      ws.onmessage = event => this.onMessage(event.data);
    });
  }

  onMessage(data) {
    if (typeof data === 'string' && this.waiting && data === this.waiting.payload) {
      const rtt = performance.now() - this.waiting.t0;
      this.settle(rtt);
      return;
    }
    if (typeof data === 'string' && this.sent.has(data)) return;   // a late echo of a ping that timed out
    // anything else is not this protocol: do not trust any of this beacon's answers
    const shown = typeof data === 'string' ? JSON.stringify(data.slice(0, 40)) : 'a binary frame';
    this.fail(BeaconState.GARBAGE, `answered ${shown} instead of the echo: ignored`);
    this.samples = [];
    if (this.waiting) this.settle(null);
    this.close();
  }

  settle(rtt) {
    const w = this.waiting;
    this.waiting = null;
    clearTimeout(w.timer);
    w.resolve(rtt);
  }

  /** One ping; resolves its RTT in ms, or null (timeout, garbage, closed). */
  ping() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || this.state === BeaconState.GARBAGE) return Promise.resolve(null);
    return new Promise(resolve => {
      const payload = `p:${++this.seq}:${this.nonce}`;
      this.sent.add(payload);
      const timer = setTimeout(() => {
        if (this.waiting && this.waiting.payload === payload) this.settle(null);
      }, this.timeoutMs);
      this.waiting = {payload, resolve, timer, t0: performance.now()};
      this.ws.send(payload);
    });
  }

  /**
   * Pings {@code count} times one after another (never two frames in flight, so a reply is matched
   * to its ping and the beacon's rate limit is respected), keeping every valid RTT.
   */
  async pingTimes(count, gapMs = 50) {
    let timeouts = 0;
    for (let i = 0; i < count; i++) {
      if (this.state === BeaconState.GARBAGE || this.state === BeaconState.FAILED) break;
      const rtt = await this.ping();
      if (rtt === null) {
        if (this.state !== BeaconState.PENDING && this.state !== BeaconState.OK) break;
        timeouts++;
        // a beacon that has never answered gets no second chance: it costs a timeout per ping
        if (this.samples.length === 0) {
          this.fail(BeaconState.TIMEOUT, `no echo within ${this.timeoutMs} ms`);
          break;
        }
      } else {
        this.samples.push(rtt);
        this.state = BeaconState.OK;
      }
      if (gapMs > 0 && i + 1 < count) await new Promise(r => setTimeout(r, gapMs));
    }
    if (this.state === BeaconState.OK) this.note = timeouts ? `${timeouts} of ${count} pings unanswered` : '';
    return this.minMs;
  }

  fail(state, note) {
    if (this.state === BeaconState.GARBAGE) return;   // the worst verdict sticks
    this.state = state;
    this.note = note;
  }

  close() {
    this.closing = true;
    if (this.ws) {
      try { this.ws.close(1000); } catch (e) { /* already closed */ }
    }
  }
}
