// The page: measure RTTs to the landmark beacons over WebSockets, have the coordinator position
// the browser (Locate), then list servers by predicted ping (GetOrderedServers). It talks to the
// beacons and the coordinator only, never to a game server.
import {ReedApi, CoordinatorDown} from './api.js';
import {Beacon, BeaconState} from './beacons.js';
import {drawPlot} from './plot.js';

const $ = id => document.getElementById(id);

/** Configuration from the query string; see the footer and web/README.md. */
function readConfig(search, origin) {
  const q = new URLSearchParams(search);
  const num = (name, fallback, min, max) => {
    const v = q.get(name);
    if (v === null || v === '') return fallback;
    const n = Number(v);
    if (!Number.isFinite(n) || n < min || n > max) throw new Error(`?${name}= must be a number in ${min}..${max}, got "${v}"`);
    return n;
  };
  const coordinator = q.get('coordinator') || (origin && origin !== 'null' ? origin : '');
  if (!coordinator) throw new Error('no coordinator: open the page from the coordinator, or give ?coordinator=URL');
  if (!/^https?:\/\//.test(coordinator)) throw new Error(`?coordinator= must be an http(s) URL, got "${coordinator}"`);
  // a beacon URL per landmark id, replacing the announced one (a proxy in front of a beacon, tests)
  const beaconOverrides = {};
  for (const [k, v] of q.entries()) {
    if (k.startsWith('beacon.')) beaconOverrides[k.slice('beacon.'.length)] = v;
  }
  return {
    coordinator,
    apiKey: q.get('key') || '',
    prior: readPrior(q.get('lat'), q.get('lon')),
    maxBeacons: num('beacons', 8, 1, 64),
    pings: num('pings', 5, 1, 50),
    timeoutMs: num('timeout', 1500, 100, 30000),
    pageSize: num('page', 50, 1, 5000),
    beaconOverrides,
  };
}

function readPrior(lat, lon) {
  if ((lat === null || lat === '') && (lon === null || lon === '')) return null;
  const la = Number(lat);
  const lo = Number(lon);
  if (!(Number.isFinite(la) && la >= -90 && la <= 90 && Number.isFinite(lo) && lo >= -180 && lo <= 180)) {
    throw new Error(`a location needs latitude -90..90 and longitude -180..180, got "${lat}", "${lon}"`);
  }
  return {latitudeDeg: la, longitudeDeg: lo};
}

function greatCircleKm(a, b) {
  const r = Math.PI / 180;
  const dLat = (b.latitudeDeg - a.latitudeDeg) * r;
  const dLon = (b.longitudeDeg - a.longitudeDeg) * r;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitudeDeg * r) * Math.cos(b.latitudeDeg * r) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

const endpointKey = e => (e.ip || '').includes(':') ? `[${e.ip}]:${e.port || 0}` : `${e.ip || ''}:${e.port || 0}`;
// Quake3 colour codes (^1 red ...) are for game clients, not for a list
const plainName = name => (name || '').replace(/\^[0-9A-Za-z]/g, '');

// Everything the page knows, exposed for tests and for anyone debugging the page.
const state = {
  phase: 'starting',          // starting | landmarks | measuring | locating | listing | ready | error
  config: null,
  dimensions: 0,
  landmarks: [],              // {id, region, endpoint, wsUrl, location, coordinate}
  beacons: {},                // landmark id -> {url, state, note, samples, minMs}
  rtts: {},                   // landmark id -> min RTT ms of beacons that answered properly
  located: null,              // {coordinate, fit, placement} from Locate; null when not located
  zeroProbe: false,           // ranked from the location alone (too few beacons answered)
  request: null,              // the last GetOrderedServers body sent
  list: [],                   // rows shown, in display order: {key, address, name, map, players, maxPlayers, predictedMs, uncertaintyMs}
  ranked: [],                 // the same rows in the coordinator's order
  totalMatching: 0,
  page: 0,
  problems: [],               // what went wrong, as told to the user
  coordinatorOk: null,
  updated: null,              // Date of the last list
};
window.reedState = state;

let api = null;
let beaconObjects = {};   // landmark id -> Beacon of the current measurement
let pageTokens = [''];
let nextToken = '';
let sort = {key: 'predictedMs', dir: 1};
let retryAction = null;
let autoTimer = null;
let busy = false;

// ------------------------------------------------------------------ status and problems

function status(text) {
  $('status').textContent = text;
}

function problem(key, text) {
  const existing = state.problems.find(p => p.key === key);
  if (existing) existing.text = text;
  else state.problems.push({key, text});
  renderProblems();
}

function clearProblem(key) {
  state.problems = state.problems.filter(p => p.key !== key);
  renderProblems();
}

function renderProblems() {
  const box = $('problems');
  box.replaceChildren(...state.problems.map(p => {
    const li = document.createElement('p');
    li.className = 'problem';
    li.dataset.key = p.key;
    li.textContent = p.text;
    return li;
  }));
}

function coordinatorDown(e, what, retry) {
  state.coordinatorOk = false;
  const kept = state.list.length ? `; keeping the ${state.list.length} servers shown` : '';
  problem('coordinator', `${e.message} while ${what}${kept}. Retry when it is back.`);
  retryAction = retry;
  $('retry').hidden = false;
}

function coordinatorBack() {
  state.coordinatorOk = true;
  clearProblem('coordinator');
  retryAction = null;
  $('retry').hidden = true;
}

async function guarded(what, retry, fn) {
  try {
    const r = await fn();
    coordinatorBack();
    return r;
  } catch (e) {
    if (e instanceof CoordinatorDown) coordinatorDown(e, what, retry);
    else problem('coordinator', `The coordinator refused ${what}: ${e.message}`);
    throw e;
  }
}

// ------------------------------------------------------------------ the steps

async function start() {
  if (busy) return;
  busy = true;
  try {
    await loadLandmarks();
    await measure();
    await locateAndList();
  } catch (e) {
    if (!state.list.length) state.phase = 'error';
    else state.phase = 'ready';
    status(state.list.length ? `Showing what the page had; ${e.message}` : `Stopped: ${e.message}`);
  } finally {
    busy = false;
  }
}

async function loadLandmarks() {
  state.phase = 'landmarks';
  status('Asking the coordinator for the landmarks…');
  const r = await guarded('listing the landmarks', start, () => api.listLandmarks());
  state.dimensions = r.dimensions || 0;
  state.landmarks = (r.landmarks || []).map(l => ({
    id: l.landmarkId || '',
    region: l.region || '',
    endpoint: {ip: (l.beacon || {}).ip || '', port: (l.beacon || {}).port || 0},
    wsUrl: state.config.beaconOverrides[l.landmarkId] || l.wsBeaconUrl || '',
    location: l.location ? {latitudeDeg: l.location.latitudeDeg || 0, longitudeDeg: l.location.longitudeDeg || 0} : null,
    coordinate: l.coordinate || null,
  }));
  const withWs = state.landmarks.filter(l => l.wsUrl);
  if (!withWs.length) {
    problem('beacons', `None of the ${state.landmarks.length} landmarks has a WebSocket beacon: the page cannot measure.`);
  } else {
    clearProblem('beacons');
  }
  drawMap();
}

/**
 * The beacons nearest the location prior when the landmarks' locations are known (one that fails
 * is replaced by the next nearest); otherwise one ping to every beacon (at most 32) and the
 * nearest by that ping.
 */
async function measure() {
  state.phase = 'measuring';
  for (const b of Object.values(beaconObjects)) b.close();
  beaconObjects = {};
  state.beacons = {};
  state.rtts = {};
  clearProblem('beacons');
  const cfg = state.config;
  let candidates = state.landmarks.filter(l => l.wsUrl);
  const byDistance = cfg.prior && candidates.length && candidates.every(l => l.location);
  if (byDistance) {
    candidates = [...candidates].sort((a, b) => greatCircleKm(cfg.prior, a.location) - greatCircleKm(cfg.prior, b.location));
  } else {
    candidates = candidates.slice(0, 32);
  }
  const all = [];
  const update = () => {
    for (const [l, b] of all) {
      state.beacons[l.id] = {url: b.url, state: b.state, note: b.note, samples: [...b.samples], minMs: b.minMs};
    }
    renderBeacons();
    drawMap();
  };
  const open = list => list.map(l => {
    const b = new Beacon(l.wsUrl, {timeoutMs: cfg.timeoutMs});
    beaconObjects[l.id] = b;
    all.push([l, b]);
    return [l, b];
  });
  const firstPing = async batch => {
    update();
    await Promise.all(batch.map(async ([, b]) => {
      if (await b.open()) await b.pingTimes(1, 0);
      update();
    }));
  };
  const good = () => all.filter(([, b]) => b.state === BeaconState.OK);
  if (byDistance) {
    let next = 0;
    while (good().length < cfg.maxBeacons && next < candidates.length) {
      const batch = open(candidates.slice(next, next + cfg.maxBeacons - good().length));
      next += batch.length;
      status(`Measuring ${good().length + batch.length} landmark beacons over WebSockets (${cfg.pings} pings each)…`);
      await firstPing(batch);
    }
  } else {
    status(`Pinging ${candidates.length} landmark beacons over WebSockets to find the nearest…`);
    await firstPing(open(candidates));
    // keep the nearest by the first ping: their RTTs position the browser where it matters
    const kept = good().sort((x, y) => x[1].minMs - y[1].minMs).slice(0, cfg.maxBeacons).map(([, b]) => b);
    for (const [, b] of good()) {
      if (!kept.includes(b)) {
        b.close();
        b.state = BeaconState.UNUSED;
        b.note = 'farther than the beacons kept: not used';
      }
    }
    status(`Measuring the ${kept.length} nearest landmark beacons over WebSockets (${cfg.pings} pings each)…`);
  }
  await Promise.all(good().map(async ([, b]) => {
    await b.pingTimes(cfg.pings - 1);
    update();
    b.close();
  }));
  for (const [, b] of all) b.close();
  update();
  const bad = [];
  for (const [l, b] of all) {
    if (b.state === BeaconState.OK && b.minMs != null) state.rtts[l.id] = b.minMs;
    else if (b.state === BeaconState.TIMEOUT) bad.push(`beacon ${l.id} never answered (${b.note}): left out`);
    else if (b.state === BeaconState.GARBAGE) bad.push(`beacon ${l.id} ${b.note}`);
    else if (b.state === BeaconState.FAILED) bad.push(`beacon ${l.id}: ${b.note}: left out`);
  }
  if (bad.length) problem('beacons', bad.join('; '));
}

async function locateAndList() {
  const cfg = state.config;
  const measured = state.landmarks.filter(l => state.rtts[l.id] != null);
  const need = (state.dimensions || 4) + 1;
  state.located = null;
  state.zeroProbe = false;
  if (measured.length >= need) {
    state.phase = 'locating';
    status(`Positioning from ${measured.length} beacon RTTs…`);
    const measurements = measured.map(l => ({
      endpoint: l.endpoint,
      rttUs: Math.min(998999, Math.max(1, Math.round(state.rtts[l.id] * 1000))),
    }));
    const r = await guarded('positioning', locateAndList, () => api.locate(measurements, cfg.prior));
    state.located = {coordinate: r.coordinate, fit: r.fit || {}, placement: r.placement || null,
      ...locationCheck(measurements, r.geoPredictedRttUs || [], r.fusion)};
  } else if (cfg.prior) {
    state.zeroProbe = true;
    problem('position', `Only ${measured.length} beacons answered (${need} needed to position): servers are ranked from your stated location alone.`);
  } else {
    throw new Error(`only ${measured.length} beacons answered and ${need} are needed to position; give your location (latitude, longitude) to rank without them`);
  }
  if (state.located) clearProblem('position');
  pageTokens = [''];
  state.page = 0;
  await loadPage();
}

/**
 * Whether the place Locate returned agrees with the measured RTTs, as the SDK decides it
 * (coordinates' DiscoveryModel.geoMisfitMaxMs): at least 3 beacons with a geographic prediction,
 * scattering by at most 10 ms (median absolute deviation) around their median difference.
 * Otherwise the list is ordered by the measured coordinate alone (ignore_location): a wrong place
 * (a bad prior, a bad database entry, a misfiring correction) would rank the wrong continent first.
 */
const GEO_MISFIT_MAX_MS = 10;

function locationCheck(measurements, geoUs, fusion) {
  const r = [];
  measurements.forEach((m, i) => {
    const g = Number(geoUs[i] || 0);
    if (g > 0) r.push((m.rttUs - g) / 1000);
  });
  if (!fusion || r.length < 3) return {locationTrusted: false, locationMisfitMs: null};
  const median = a => {
    const v = [...a].sort((x, y) => x - y);
    const h = v.length >> 1;
    return v.length % 2 ? v[h] : (v[h - 1] + v[h]) / 2;
  };
  const offset = median(r);
  const misfit = median(r.map(x => Math.abs(x - offset)));
  return {locationTrusted: misfit <= GEO_MISFIT_MAX_MS, locationMisfitMs: misfit};
}

function filterFromForm() {
  const f = {};
  const game = $('f-game').value.trim();
  const map = $('f-map').value.trim();
  if (game) f.game = game;
  if (map) f.map = map;
  if ($('f-not-full').checked) f.notFull = true;
  if ($('f-not-empty').checked) f.notEmpty = true;
  if ($('f-password').value) f.password = $('f-password').value;
  return f;
}

function listLocation() {
  const p = state.located && state.located.placement;
  if (p && p.point) return {latitudeDeg: p.point.latitudeDeg || 0, longitudeDeg: p.point.longitudeDeg || 0};
  return state.config.prior;
}

async function loadPage() {
  state.phase = 'listing';
  const pageSize = Number($('f-page-size').value) || state.config.pageSize;
  status('Fetching servers by predicted ping…');
  const client = state.located ? state.located.coordinate : null;
  const location = listLocation();
  const filter = filterFromForm();
  const token = pageTokens[state.page];
  const ignoreLocation = !!(state.located && location && !state.located.locationTrusted);
  state.request = {client, location, filter, pageSize, pageToken: token, ignoreLocation};
  const r = await guarded('fetching the server list', loadPage,
      () => api.orderedServers(client, location, filter, pageSize, token, ignoreLocation));
  nextToken = r.nextPageToken || '';
  state.totalMatching = r.totalMatching || 0;
  state.ranked = (r.servers || []).map(s => {
    const info = s.serverInfo || {};
    const key = endpointKey(s.endpoint || {});
    return {
      key,
      address: key,
      name: plainName(info.name) || key,
      map: info.map || '',
      game: info.game || '',
      players: info.players || 0,
      maxPlayers: info.maxPlayers || 0,
      password: !!info.password,
      predictedMs: (s.predictedRttUs || 0) / 1000,
      uncertaintyMs: (s.uncertaintyUs || 0) / 1000,
      // the coordinator's integrity check flags it (anycast, query proxy): its prediction says little
      unreliable: !!s.predictedRttUnreliable,
    };
  });
  state.updated = new Date();
  renderList();
  state.phase = 'ready';
  let how = state.located ? `positioned from ${Object.keys(state.rtts).length} beacon RTTs`
      : 'ranked from your stated location alone (no RTTs)';
  if (ignoreLocation) {
    how += state.located.locationMisfitMs != null
        ? `; the location does not fit them (they scatter by ${state.located.locationMisfitMs.toFixed(0)} ms around its predictions), so the order uses the measured position alone`
        : '; the order uses the measured position alone';
  }
  status(`${state.ranked.length} servers shown of ${state.totalMatching} matching; ${how}; updated ${state.updated.toLocaleTimeString()}.`);
  drawMap();
}

// ------------------------------------------------------------------ rendering

function renderBeacons() {
  const rows = Object.entries(state.beacons).map(([id, b]) => {
    const l = state.landmarks.find(x => x.id === id) || {};
    const tr = document.createElement('tr');
    tr.dataset.landmark = id;
    tr.className = `beacon-${b.state}`;
    for (const text of [id, l.region || '', b.minMs != null ? `${b.minMs.toFixed(1)} ms` : '–', String(b.samples.length),
      b.state + (b.note ? `: ${b.note}` : '')]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    return tr;
  });
  $('beacons').tBodies[0].replaceChildren(...rows);
}

function compare(a, b) {
  const k = sort.key;
  let d;
  if (k === 'players') d = a.players - b.players || a.maxPlayers - b.maxPlayers;
  // flagged servers stay after the rest, as the coordinator demotes them, whichever way ping sorts
  else if (k === 'predictedMs') return (a.unreliable - b.unreliable) || (a.predictedMs - b.predictedMs) * sort.dir;
  else d = String(a[k]).localeCompare(String(b[k]), undefined, {numeric: true, sensitivity: 'base'});
  return d * sort.dir;
}

function renderList() {
  // a stable sort keeps the coordinator's order among equals
  state.list = [...state.ranked].sort(compare);
  const rows = state.list.map(s => {
    const tr = document.createElement('tr');
    tr.dataset.key = s.key;
    const name = document.createElement('td');
    name.className = 'name';
    name.title = s.name;
    name.textContent = s.name;
    if (s.password) {
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = 'password';
      name.append(' ', badge);
    }
    if (s.unreliable) {
      const badge = document.createElement('span');
      badge.className = 'badge';
      badge.textContent = 'unverified ping';
      badge.title = 'The landmarks see this address near places far apart (anycast or a query proxy): its ping is a guess.';
      name.append(' ', badge);
    }
    const map = document.createElement('td');
    map.textContent = s.map;
    const players = document.createElement('td');
    players.className = 'num';
    players.textContent = s.maxPlayers ? `${s.players}/${s.maxPlayers}` : String(s.players);
    const ping = document.createElement('td');
    ping.className = 'num ping';
    ping.textContent = `${Math.round(s.predictedMs)} ms` + (s.uncertaintyMs ? ` ± ${Math.round(s.uncertaintyMs)}` : '');
    ping.title = 'predicted, not measured';
    const address = document.createElement('td');
    const code = document.createElement('code');
    code.textContent = s.address;
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'copy';
    copy.textContent = 'Copy';
    copy.setAttribute('aria-label', `Copy address ${s.address}`);
    copy.addEventListener('click', () => copyText(s.address));
    address.append(code, ' ', copy);
    tr.append(name, map, players, ping, address);
    return tr;
  });
  $('servers').tBodies[0].replaceChildren(...rows);
  for (const th of $('servers').tHead.rows[0].cells) {
    const b = th.querySelector('button');
    th.setAttribute('aria-sort', b.dataset.sort === sort.key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none');
  }
  $('prev').disabled = state.page === 0;
  $('next').disabled = !nextToken;
  $('page-no').textContent = state.ranked.length ? `Page ${state.page + 1}` : '';
  $('summary').textContent = state.ranked.length
      ? `${state.totalMatching} servers match; predicted pings (± their typical error) come from the landmark network, not from probing.`
      : (state.phase === 'listing' ? 'No server matches the filters.' : '');
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch (e) {
    const area = document.createElement('textarea');
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  status(`Copied ${text}.`);
}

function drawMap() {
  const lms = state.landmarks.map(l => {
    const b = state.beacons[l.id];
    const c = l.coordinate && l.coordinate.components || [];
    return {id: l.id, region: l.region, lat: l.location ? l.location.latitudeDeg : null, lon: l.location ? l.location.longitudeDeg : null,
      x: c.length > 1 ? c[0] : null, y: c.length > 1 ? c[1] : null, state: b ? b.state : 'pending', rttMs: b ? b.minMs : null};
  });
  let player = null;
  const loc = listLocation();
  const c = state.located && state.located.coordinate && state.located.coordinate.components || [];
  if (loc || c.length > 1) {
    player = {lat: loc ? loc.latitudeDeg : null, lon: loc ? loc.longitudeDeg : null, x: c.length > 1 ? c[0] : null, y: c.length > 1 ? c[1] : null};
  }
  const text = drawPlot($('plot'), lms, player);
  $('plot-desc').textContent = text;
  $('plot-caption').textContent = `Landmarks (squares; filled: measured) and you (circle): ${text}.`;
}

// ------------------------------------------------------------------ wiring

function refresh() {
  if (busy) return;
  if (!state.located && !state.zeroProbe) {
    start();
    return;
  }
  busy = true;
  loadPage().catch(e => {
    state.phase = 'ready';
    status(state.list.length ? `Showing what the page had; ${e.message}` : `Stopped: ${e.message}`);
  }).finally(() => { busy = false; });
}

function init() {
  try {
    state.config = readConfig(location.search, location.origin);
  } catch (e) {
    state.phase = 'error';
    problem('config', e.message);
    status('Not started: the page\'s configuration is wrong.');
    return;
  }
  api = new ReedApi(state.config.coordinator, state.config.apiKey);
  $('coordinator-origin').textContent = state.config.coordinator;
  const sizes = $('f-page-size');
  if (![...sizes.options].some(o => Number(o.value) === state.config.pageSize)) sizes.add(new Option(String(state.config.pageSize)));
  sizes.value = String(state.config.pageSize);
  if (state.config.prior) {
    $('prior-lat').value = state.config.prior.latitudeDeg;
    $('prior-lon').value = state.config.prior.longitudeDeg;
  }
  $('prior-form').addEventListener('submit', e => {
    e.preventDefault();
    try {
      state.config.prior = readPrior($('prior-lat').value.trim(), $('prior-lon').value.trim());
      clearProblem('config');
    } catch (err) {
      problem('config', err.message);
      return;
    }
    start();
  });
  $('filters').addEventListener('submit', e => {
    e.preventDefault();
    pageTokens = [''];
    state.page = 0;
    refresh();
  });
  $('refresh').addEventListener('click', refresh);
  $('retry').addEventListener('click', () => {
    const action = retryAction;
    if (!action || busy) return;
    status('Retrying…');
    if (action === start) {
      start();
      return;
    }
    busy = true;
    (action === locateAndList ? locateAndList() : loadPage()).catch(e => {
      state.phase = state.list.length ? 'ready' : 'error';
      status(state.list.length ? `Showing what the page had; ${e.message}` : `Stopped: ${e.message}`);
    }).finally(() => { busy = false; });
  });
  $('prev').addEventListener('click', () => {
    if (state.page > 0) {
      state.page--;
      refresh();
    }
  });
  $('next').addEventListener('click', () => {
    if (nextToken) {
      pageTokens[state.page + 1] = nextToken;
      state.page++;
      refresh();
    }
  });
  $('auto').addEventListener('change', e => {
    clearInterval(autoTimer);
    if (e.target.checked) autoTimer = setInterval(refresh, 30000);
  });
  for (const b of $('servers').tHead.querySelectorAll('button[data-sort]')) {
    b.addEventListener('click', () => {
      sort = sort.key === b.dataset.sort ? {key: sort.key, dir: -sort.dir} : {key: b.dataset.sort, dir: 1};
      renderList();
    });
  }
  start();
}

init();
