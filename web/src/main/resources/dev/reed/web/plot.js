// A small SVG plot of the landmarks and the player: on a longitude/latitude plane when every
// landmark and the player have a location, otherwise on the first two coordinate axes (ms).

const SVG = 'http://www.w3.org/2000/svg';

function el(name, attrs, text) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/**
 * @param {SVGSVGElement} svg
 * @param {Array<{id, region, lat, lon, x, y, state, rttMs}>} landmarks
 * @param {{lat, lon, x, y}|null} player
 * @returns {string} what the plot shows, for its description and caption
 */
export function drawPlot(svg, landmarks, player) {
  const width = 320;
  const height = 200;
  const pad = 18;
  const geo = landmarks.length > 0 && landmarks.every(l => l.lat != null && l.lon != null)
      && (!player || (player.lat != null && player.lon != null));
  const px = p => geo ? p.lon : p.x;
  const py = p => geo ? p.lat : p.y;
  const points = landmarks.filter(l => px(l) != null && py(l) != null);
  const all = player && px(player) != null ? [...points, player] : points;
  for (const child of [...svg.childNodes]) {
    if (child.nodeName !== 'title' && child.nodeName !== 'desc') svg.removeChild(child);
  }
  if (all.length === 0) return 'nothing to plot yet';
  let minX = Math.min(...all.map(px));
  let maxX = Math.max(...all.map(px));
  let minY = Math.min(...all.map(py));
  let maxY = Math.max(...all.map(py));
  const spanX = Math.max(maxX - minX, 1e-6);
  const spanY = Math.max(maxY - minY, 1e-6);
  // one scale for both axes: distances on the plot compare
  const scale = Math.min((width - 2 * pad) / spanX, (height - 2 * pad) / spanY);
  const ox = (width - scale * spanX) / 2;
  const oy = (height - scale * spanY) / 2;
  const sx = v => ox + (v - minX) * scale;
  const sy = v => height - (oy + (v - minY) * scale);   // north / +y up

  svg.appendChild(el('rect', {x: 0.5, y: 0.5, width: width - 1, height: height - 1, class: 'frame'}));
  for (const l of points) {
    const cls = `landmark ${l.state || 'pending'}`;
    const g = el('g', {class: cls, tabindex: 0, role: 'img',
      'aria-label': `landmark ${l.id}${l.region ? ' (' + l.region + ')' : ''}${l.rttMs != null ? ', ' + l.rttMs.toFixed(1) + ' ms' : ''}`});
    g.appendChild(el('title', {}, `${l.id}${l.region ? ' ' + l.region : ''}${l.rttMs != null ? ': ' + l.rttMs.toFixed(1) + ' ms' : ''}`));
    g.appendChild(el('rect', {x: sx(px(l)) - 4, y: sy(py(l)) - 4, width: 8, height: 8}));
    svg.appendChild(g);
  }
  if (player && px(player) != null) {
    const g = el('g', {class: 'player', role: 'img', 'aria-label': 'you'});
    g.appendChild(el('title', {}, 'you'));
    g.appendChild(el('circle', {cx: sx(px(player)), cy: sy(py(player)), r: 6}));
    svg.appendChild(g);
  }
  const axes = geo ? 'longitude / latitude' : 'coordinate axes 1 and 2 (ms of RTT)';
  svg.appendChild(el('text', {x: 6, y: height - 6, class: 'axes'}, axes));
  const measured = points.filter(l => l.state === 'ok').length;
  return `${points.length} landmarks (${measured} measured) ${player ? 'and you ' : ''}on ${axes}`;
}
