package dev.reed.coordinates.discovery;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.LandmarkComparison;
import dev.reed.coordinates.Stats;
import dev.reed.coordinates.geo.FusionWeights;
import dev.reed.coordinates.geo.Place;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The order in which a client probes servers (REED Algorithm 4), learning from every reply. Pages
 * of the coordinator's ordered list come in as the driver fetches them ({@link #pageRequest});
 * within what has arrived, servers are handed out best first ({@link #next}), and each reply
 * ({@link #replied}) refines the order. Event-driven and free of I/O: the SDK calls it from its
 * probe loop as replies and pages arrive, the evaluator from a loop over a matrix.
 *
 * <p>REED's list is only as good as the servers' coordinates, which come from a few distant
 * landmarks: on PlanetLab even a perfectly placed client orders its 10 nearest servers with
 * precision ~0.63. The client's own probes carry the local information the landmarks lack, used
 * three ways (beyond the paper):
 *
 * <ol>
 *   <li>Landmark comparison ({@link LandmarkComparison}): the client's RTTs to the beacons it
 *       calibrated against and each server's RTTs from the same landmarks bound every prediction
 *       (triangle inequality), and the order adds {@link DiscoveryModel#nearDifferenceWeight()}
 *       times the near-landmark difference, which flags servers the coordinates misplace.
 *   <li>Re-positioning: after each reply the client re-fits its coordinate from its calibration RTTs
 *       plus every server RTT measured so far (GNP host fit, warm-started; a Vivaldi-like update per
 *       sample, Dabek et al. 2004), a server RTT d weighing {@code (d / (d + sigma))^2} so a 2 ms
 *       neighbour with a few ms of coordinate error cannot dominate.
 *   <li>Residual kriging: the misprediction {@code measured - predicted} of probed servers is
 *       spatially correlated (servers at one site share their error), so an unprobed server's
 *       prediction is corrected by the kernel-weighted mean residual of probed servers near it in
 *       coordinate space (Gaussian kernel {@link DiscoveryModel#kernelMs()}, shrunk towards 0 by
 *       {@link DiscoveryModel#prior()}; Nadaraya-Watson regression); with locations, near it on
 *       the map instead ({@link DiscoveryModel#kernelKm()} of great-circle distance).
 * </ol>
 *
 * <p>Location (after Htrae: Agarwal &amp; Lorch, SIGCOMM 2009): when the coordinator knows
 * where the client and a server are ({@link LocationFix}, its location prior corrected by the
 * calibration), it sends its geographic prediction ({@link RankedCandidate#geoMs}) and the
 * weights it fitted by cross-validation on landmark data; each base
 * prediction is then that convex combination of the geographic prediction, the bounded coordinate
 * distance and Valve's relay bound ({@code min over landmarks of the client's RTT to the beacon plus
 * the landmark's RTT to the server}), and learning corrects it as above. The calibration checks the
 * prior first: its RTTs minus the geographic predictions for the same points give the client's own
 * excess (added to every geographic prediction), and when they scatter by more than {@link
 * DiscoveryModel#geoMisfitMaxMs()} the location is wrong (a GeoIP database's error) and the order
 * falls back to the coordinates alone.
 *
 * <p>Client reports: a server for which clients near this one reported RTTs comes with
 * the coordinator's factor on the coordinate prediction ({@link RankedCandidate#reportFactor}); its
 * prediction is then what those clients measured, taken from where the page was asked, without the
 * landmark bounds and the near-landmark difference (which exist to guess what the report says).
 *
 * <p>Learning stops after {@link DiscoveryModel#refitLimit()} replies. When the re-fitted position
 * has moved more than {@link DiscoveryModel#refetchMovedMs()} from where the list was asked, the
 * list is asked again from the new position (servers already known are kept). A game server the
 * client calibrated against is handed out in its turn like any other, marked as measured: its reply
 * counts as a server found without a second probe.
 *
 * <p>Not thread-safe: one instance per discovery. Work per reply: one warm-started fit plus
 * O(servers x replies) multiply-adds.
 */
public final class ProbeOrder {

  /**
   * A server handed out.
   *
   * @param predictedMs the current prediction (corrected, within the landmark bounds)
   * @param measured true for a server the client calibrated against: its RTT is known (in the
   *     calibration), report it with {@link #replied} without probing again
   */
  public record Pick(RankedCandidate candidate, double predictedMs, boolean measured) {}

  private static final class Entry {
    final RankedCandidate candidate;
    /** Where the client was when the page holding it was asked for. */
    final Coordinate askedFrom;
    final LandmarkComparison comparison;
    final double bias;
    final double relay;
    double base;
    double num;
    double den;
    boolean probed;
    float[] weights = new float[8];

    Entry(RankedCandidate candidate, LandmarkComparison comparison, double bias, double relay, Coordinate askedFrom) {
      this.candidate = candidate;
      this.askedFrom = askedFrom;
      this.comparison = comparison;
      this.bias = bias;
      this.relay = relay;
    }

    void weight(int p, float w) {
      if (p >= weights.length) {
        weights = Arrays.copyOf(weights, Math.max(p + 1, 2 * weights.length));
      }
      weights[p] = w;
    }
  }

  private final DiscoveryModel model;
  private final HostPositioner positioner;
  private final int lowWater;
  private final String[] landmarkIds;
  private final double[] clientLandmarkMs;
  private final Map<String, Double> landmarkRtt;
  /** The coordinator's fusion weights when the client's location passed the calibration check, else null. */
  private final FusionWeights fusion;
  private final LocationFix location;
  private double geoOffsetMs;
  private double geoMisfitMs = Double.NaN;
  /** The location fix explains the calibration within {@link DiscoveryModel#geoSureMs()}: the fused prediction is taken as it is. */
  private boolean geoSure;
  private final Set<String> calibrationKeys = new HashSet<>();
  private final List<Coordinate> anchors = new ArrayList<>();
  private double[] anchorRtt;
  private double[] anchorWeight;
  private final List<Entry> entries = new ArrayList<>();
  private final Map<String, Entry> byKey = new HashMap<>();
  private final Map<String, Double> premeasured = new HashMap<>();
  private final List<Entry> kernelPoints = new ArrayList<>();
  private final List<Double> kernelRtt = new ArrayList<>();
  private double[] residuals = new double[0];
  /**
   * What every reply so far says the client adds to every prediction (its last mile: a constant per
   * client, so it does not reorder servers), shrunk towards 0 like the local correction; the local
   * correction spreads the rest. Without it, servers near the probed ones would carry the offset
   * and the unexplored ones not, and the order would favour what it knows least.
   */
  private double offsetMs;
  private Coordinate position;
  private int answers;
  private int unprobed;
  /** Of those, the demoted ones: they wait for every other server, those of pages still to come too. */
  private int unprobedDemoted;

  private Coordinate chainFrom;
  private String cursor = "";
  private boolean more = true;
  private boolean inFlight;
  private boolean anyPage;
  private int generation;

  ProbeOrder(DiscoveryModel model, CoordinateConfig geometry, Calibration calibration, Coordinate start, int pageSize) {
    if (start == null || start.dimensions() != geometry.dimensions()) {
      throw new IllegalArgumentException("a " + geometry.dimensions() + "-D start position is required");
    }
    if (pageSize < 1) {
      throw new IllegalArgumentException("pageSize must be >= 1: " + pageSize);
    }
    this.model = model;
    this.positioner = new HostPositioner(geometry);
    this.lowWater = Math.max(1, pageSize / 4);
    this.position = start;
    this.chainFrom = start;
    Map<String, Double> lm = calibration.landmarkRttMs();
    this.landmarkIds = lm.keySet().toArray(new String[0]);
    this.clientLandmarkMs = lm.values().stream().mapToDouble(Double::doubleValue).toArray();
    this.landmarkRtt = Map.copyOf(lm);
    List<CalibrationPoint> probed = calibration.probed();
    int cap = probed.size() + model.refitLimit() + 1;
    anchorRtt = new double[cap];
    anchorWeight = new double[cap];
    for (CalibrationPoint p : probed) {
      anchorRtt[anchors.size()] = calibration.rttMs().getOrDefault(p.key(), Double.NaN);
      anchorWeight[anchors.size()] = 1.0;
      anchors.add(p.coordinate());
      calibrationKeys.add(p.key());
      if (!p.beacon() && calibration.rttMs().containsKey(p.key())) {
        premeasured.put(p.key(), calibration.rttMs().get(p.key()));
      }
    }
    this.location = calibration.location();
    this.fusion = checkedFusion(calibration);
  }

  /**
   * The fusion weights if the location prior agrees with what the calibration measured (class
   * comment): at least 3 points with both a geographic prediction and an RTT, scattering by at most
   * {@link DiscoveryModel#geoMisfitMaxMs()} around their median difference, which becomes the
   * client's excess offset.
   */
  private FusionWeights checkedFusion(Calibration calibration) {
    LocationFix fix = calibration.location();
    if (!model.geo() || fix == null) {
      return null;
    }
    double[] r = new double[calibration.probed().size()];
    int n = 0;
    for (CalibrationPoint p : calibration.probed()) {
      Double ms = calibration.rttMs().get(p.key());
      Double geo = fix.geoMs().get(p.key());
      if (ms != null && geo != null && Double.isFinite(geo)) {
        r[n++] = ms - geo;
      }
    }
    if (n < 3) {
      return null;
    }
    double offset = Stats.median(r, n);
    for (int i = 0; i < n; i++) {
      r[i] = Math.abs(r[i] - offset);
    }
    geoMisfitMs = Stats.median(r, n);
    if (geoMisfitMs > model.geoMisfitMaxMs()) {
      return null;
    }
    geoOffsetMs = offset;
    geoSure = geoMisfitMs <= model.geoSureMs();
    return fix.weights();
  }

  /**
   * Whether the order fuses the coordinator's geographic predictions: it sent them and the
   * calibration found the client's location prior consistent.
   */
  public boolean usesLocation() {
    return fusion != null;
  }

  /** How far the calibration RTTs scattered around the geographic predictions (ms), NaN when not checked. */
  public double locationMisfitMs() {
    return geoMisfitMs;
  }

  /** The client's current coordinate. */
  public Coordinate position() {
    return position;
  }

  /** Replies the order has learned from so far. */
  public int answers() {
    return answers;
  }

  /**
   * The page the order wants next, or null for none now: the first page; the next one when at most
   * a quarter of a page is left unprobed; the first page from the new position when the client has
   * moved (class comment). At most one page is wanted at a time.
   */
  public PageRequest pageRequest() {
    if (inFlight) {
      return null;
    }
    if (anyPage && position.euclideanTo(chainFrom) > model.refetchMovedMs()) {
      generation++;
      chainFrom = position;
      cursor = "";
      more = true;
    } else if (anyPage && !(more && unprobed - unprobedDemoted <= lowWater)) {
      return null;
    }
    inFlight = true;
    return new PageRequest(chainFrom, cursor, generation, fusion == null ? null : location.place(),
        fusion == null && location != null, landmarkRtt);
  }

  /** A page arrived: its servers join the order (servers already known are skipped). */
  public void pageArrived(PageRequest request, List<RankedCandidate> servers, String nextCursor) {
    if (request.generation() != generation) {
      return;
    }
    inFlight = false;
    anyPage = true;
    for (RankedCandidate c : servers) {
      if (!byKey.containsKey(c.key())) {
        add(c);
      }
    }
    cursor = nextCursor == null ? "" : nextCursor;
    more = !cursor.isEmpty();
  }

  /** The page could not be fetched: no further page is asked for from this chain. */
  public void pageFailed(PageRequest request) {
    if (request.generation() == generation) {
      inFlight = false;
      anyPage = true;
      more = false;
    }
  }

  /**
   * The next server to probe (marked handed out), or null when none has arrived that is not handed
   * out yet; a demoted candidate only when no other is left and no page is still to come (one that
   * arrived late would otherwise be probed after it: "probed after every other server" is the
   * client's promise, ReedClient.Builder#suspectServers).
   */
  public Pick next() {
    Entry best = null;
    double bv = 0;
    for (Entry e : entries) {
      if (!e.probed) {
        double v = predicted(e, false) + e.bias;
        boolean later = best != null && e.candidate.demoted() != best.candidate.demoted();
        if (best == null || (later ? best.candidate.demoted() : v < bv)) {
          best = e;
          bv = v;
        }
      }
    }
    if (best == null || best.candidate.demoted() && (more || inFlight)) {
      return null;
    }
    hand(best);
    return new Pick(best.candidate, predicted(best), premeasured.containsKey(best.candidate.key()));
  }

  /** Servers that have arrived and are not handed out yet. */
  public int waiting() {
    return unprobed;
  }

  /** True once every server has been handed out and no page will come. */
  public boolean exhausted() {
    return unprobed == 0 && anyPage && !more && !inFlight;
  }

  /** The server of this key did not answer (it leaves the order if it was in it). */
  public void noReply(String key) {
    Entry e = byKey.get(key);
    if (e != null) {
      hand(e);
    }
  }

  /**
   * The server of this key answered in {@code rttMs}; it leaves the order and, within the refit
   * limit, the client re-fits itself and corrects the predictions near it.
   *
   * @throws IllegalArgumentException for a negative, infinite or NaN RTT
   */
  public void replied(String key, double rttMs) {
    if (!(rttMs >= 0) || Double.isInfinite(rttMs)) {
      throw new IllegalArgumentException("rttMs must be finite and >= 0: " + rttMs);
    }
    Entry e = byKey.get(key);
    if (e == null) {
      return;
    }
    hand(e);
    Coordinate at = e.candidate.coordinate();
    if (at == null || answers >= model.refitLimit()) {
      return;
    }
    answers++;
    if (!calibrationKeys.contains(key)) {
      int k = anchors.size();
      anchors.add(at);
      anchorRtt[k] = rttMs;
      double sig = model.serverSigmaMs();
      anchorWeight[k] = sig == 0 ? 1.0 : Math.pow(rttMs / (rttMs + sig), 2);
      try {
        position = positioner.position(anchors, Arrays.copyOf(anchorRtt, k + 1), Arrays.copyOf(anchorWeight, k + 1),
            position).coordinate();
      } catch (IllegalArgumentException cannotHappen) {
        // the calibration anchors alone have D+1 replies; keep the previous position
      }
    }
    int p = kernelPoints.size();
    kernelPoints.add(e);
    kernelRtt.add(rttMs);
    for (Entry x : entries) {
      x.weight(p, x.probed ? 0f : kernel(e, x));
    }
    for (Entry x : entries) {
      x.base = base(x);
    }
    residuals = new double[kernelPoints.size()];
    for (int q = 0; q < residuals.length; q++) {
      residuals[q] = kernelRtt.get(q) - kernelPoints.get(q).base;
    }
    offsetMs = Stats.median(residuals.clone(), residuals.length) * residuals.length / (residuals.length + model.prior());
    for (int q = 0; q < residuals.length; q++) {
      residuals[q] -= offsetMs;
    }
    for (Entry x : entries) {
      if (!x.probed) {
        correct(x);
      }
    }
  }

  private Entry add(RankedCandidate c) {
    LandmarkComparison cmp = comparison(c);
    boolean reported = c.reportFactor() != 1.0;
    Entry e = new Entry(c, cmp, cmp == null || geoSure || reported ? 0 : model.nearDifferenceWeight() * cmp.nearDifferenceMs(),
        relay(c), chainFrom);
    e.base = base(e);
    if (!kernelPoints.isEmpty()) {
      for (int q = 0; q < kernelPoints.size(); q++) {
        e.weight(q, kernel(kernelPoints.get(q), e));
      }
      correct(e);
    }
    entries.add(e);
    byKey.put(c.key(), e);
    unprobed++;
    if (c.demoted()) unprobedDemoted++;
    return e;
  }

  private void hand(Entry e) {
    if (!e.probed) {
      e.probed = true;
      unprobed--;
      if (e.candidate.demoted()) unprobedDemoted--;
    }
  }

  private void correct(Entry x) {
    double num = 0;
    double den = 0;
    for (int q = 0; q < residuals.length; q++) {
      float w = q < x.weights.length ? x.weights[q] : 0f;
      num += w * residuals[q];
      den += w;
    }
    x.num = num;
    x.den = den;
  }

  /**
   * How much a misprediction at probed server {@code a} says about server {@code b}: a Gaussian of
   * their great-circle distance when the order is fused with locations and both are located
   * (servers at one site share their error whatever the coordinates say), else of their distance
   * in coordinate space; 0 when neither can be measured.
   */
  private float kernel(Entry a, Entry b) {
    if (geoSure) {
      return 0f;
    }
    Place pa = a.candidate.place();
    Place pb = b.candidate.place();
    if (fusion != null && pa != null && pb != null) {
      double km = pa.kmTo(pb);
      return (float) Math.exp(-km * km / (2 * model.kernelKm() * model.kernelKm()));
    }
    Coordinate ca = a.candidate.coordinate();
    Coordinate cb = b.candidate.coordinate();
    if (ca == null || cb == null) {
      return 0f;
    }
    double d = ca.euclideanTo(cb);
    return (float) Math.exp(-d * d / (2 * model.kernelMs() * model.kernelMs()));
  }

  private double predicted(Entry e) {
    return predicted(e, true);
  }

  private double predicted(Entry e, boolean clamp) {
    double v = e.base + offsetMs + e.num / (e.den + model.prior());
    return clamp ? Math.max(0, v) : v;
  }

  /**
   * The client's distance to the server (the coordinator's prediction without a coordinate), within
   * its landmark bounds; fused with the geographic prediction and the relay bound when the location
   * prior is trusted.
   */
  private double base(Entry e) {
    Coordinate c = e.candidate.coordinate();
    if (c != null && e.candidate.reportFactor() != 1.0) {
      // what clients reported from near here: the factor holds for the position the page was asked from
      return fused(e, Math.max(1.0, e.askedFrom.distanceTo(c)) * e.candidate.reportFactor());
    }
    double d = c == null ? e.candidate.predictedMs() : position.distanceTo(c);
    d = e.comparison == null ? d : e.comparison.refine(d, model.lowerBoundBeyondMs());
    return fused(e, d);
  }

  /** The prediction {@code d} fused with the geographic one and the relay bound when the location prior is trusted. */
  private double fused(Entry e, double d) {
    if (fusion != null && Double.isFinite(e.candidate.geoMs())) {
      double f = fusion.predictMs(Math.max(0, e.candidate.geoMs() + geoOffsetMs), d, e.relay);
      return Double.isFinite(f) ? f : d;
    }
    return d;
  }

  /** Valve's relay bound for a server: the least client-beacon plus landmark-server RTT, NaN without a common landmark. */
  private double relay(RankedCandidate c) {
    double best = Double.NaN;
    for (int l = 0; l < landmarkIds.length; l++) {
      Double server = c.landmarkRttMs().get(landmarkIds[l]);
      if (server != null && !(clientLandmarkMs[l] + server >= best)) {
        best = clientLandmarkMs[l] + server;
      }
    }
    return best;
  }

  private LandmarkComparison comparison(RankedCandidate c) {
    if (!model.comparison() || landmarkIds.length == 0 || c.landmarkRttMs().isEmpty()) {
      return null;
    }
    double[] server = new double[landmarkIds.length];
    for (int l = 0; l < landmarkIds.length; l++) {
      server[l] = c.landmarkRttMs().getOrDefault(landmarkIds[l], Double.NaN);
    }
    return LandmarkComparison.between(clientLandmarkMs, server);
  }
}
