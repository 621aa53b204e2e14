package dev.reed.eval;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.LandmarkComparison;
import dev.reed.coordinates.LandmarkEmbedder;
import dev.reed.coordinates.LandmarkEmbedding;
import dev.reed.coordinates.PositionFit;
import dev.reed.coordinates.autostop.AutoStopPolicy;
import dev.reed.coordinates.calibration.CalibrationCandidate;
import dev.reed.coordinates.calibration.CalibrationSelector;
import dev.reed.coordinates.ranking.AdaptiveOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * One landmark seed of the paper's section 5 method, offline on a measured matrix: choose and embed
 * landmarks from their own sub-matrix, position every other node from its RTTs to the landmarks
 * only, then let each client calibrate, rank, probe in order (re-fitting itself from what it has
 * measured) and apply each auto-stop policy to its probe sequence.
 */
final class SeedRun {

  /** A client's probe order: server node, predicted RTT when it was probed, measured RTT (NaN = none). */
  record Sequence(int[] servers, double[] predicted, double[] rtt) {}

  record Output(long seed, int[] landmarks, LandmarkEmbedding embedding, Coordinate[] coords, double[] fitError,
      List<ClientResult> clients, double[] relErrors, Map<Integer, Sequence> sequences, int unpositioned,
      int failedClients) {}

  /** One client's simulation: its result, its relative errors (pooled later) and its probe order. */
  private record ClientRun(ClientResult result, double[] relErrors, Sequence sequence) {}

  private final RttMatrix m;
  private final EvalSettings s;
  private final CoordinateConfig cfg;
  private final HostPositioner positioner;

  private final boolean accuracyOnly;
  private final AdaptiveOrder.Settings adaptive;
  private final AdaptiveOrder.Settings frozen;

  SeedRun(RttMatrix m, EvalSettings s, boolean accuracyOnly) {
    this.accuracyOnly = accuracyOnly;
    this.adaptive = new AdaptiveOrder.Settings(s.kernelMs(), AdaptiveOrder.Settings.defaults().prior(),
        s.repositionLimit(), s.serverSigmaMs(), s.lowerBoundBeyondMs(), s.nearDifferenceWeight());
    this.frozen = new AdaptiveOrder.Settings(adaptive.kernelMs(), adaptive.prior(), 0, adaptive.serverSigmaMs(),
        adaptive.lowerBoundBeyondMs(), adaptive.nearDifferenceWeight());
    this.m = m;
    this.s = s;
    this.cfg = s.coordinates();
    this.positioner = new HostPositioner(cfg);
  }

  Output run(long seed, boolean keepSequences, ExecutorService pool) throws Exception {
    int n = m.size();
    int[] lm = s.landmarkList() != null ? s.landmarkList().clone() : s.strategy().choose(m, s.landmarks(), seed, s.kmedoidsCapMs());
    if (lm.length < cfg.dimensions() + 2) {
      throw new IllegalArgumentException("need at least D+2 = " + (cfg.dimensions() + 2) + " landmarks, got " + lm.length);
    }
    LandmarkEmbedding emb = new LandmarkEmbedder(cfg, new SplittableRandom(seed)).embed(m.sub(lm), null);
    boolean[] isLandmark = new boolean[n];
    Coordinate[] coords = new Coordinate[n];
    double[] fitError = new double[n];
    Arrays.fill(fitError, Double.NaN);
    List<Coordinate> lmCoords = emb.coordinates();
    for (int k = 0; k < lm.length; k++) {
      isLandmark[lm[k]] = true;
      coords[lm[k]] = lmCoords.get(k);
      fitError[lm[k]] = emb.relativeErrors()[k];
    }
    int unpositioned = 0;
    double[][] landmarkRtt = new double[n][];
    for (int v = 0; v < n; v++) {
      double[] r = new double[lm.length];
      for (int k = 0; k < lm.length; k++) {
        r[k] = lm[k] == v ? 0 : m.rtt(lm[k], v); // measured by the landmark
      }
      landmarkRtt[v] = r;
      if (isLandmark[v]) {
        continue;
      }
      try {
        PositionFit f = positioner.position(lmCoords, r, null);
        coords[v] = f.coordinate();
        fitError[v] = f.relativeError();
      } catch (IllegalArgumentException tooFew) {
        unpositioned++;
      }
    }
    List<Integer> serverNodes = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      if (!isLandmark[v] && coords[v] != null) {
        serverNodes.add(v);
      }
    }
    int[] servers = serverNodes.stream().mapToInt(Integer::intValue).toArray();
    List<Integer> clientNodes = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      if ((s.clients() == EvalSettings.ClientMode.ALL ? !isLandmark[v] : isLandmark[v]) && v % s.clientStride() == 0) {
        clientNodes.add(v);
      }
    }
    List<CalibrationCandidate> candidates = new ArrayList<>();
    for (int k = 0; k < lm.length; k++) {
      double e = emb.relativeErrors()[k];
      candidates.add(new CalibrationCandidate(Integer.toString(lm[k]), lmCoords.get(k), Double.isFinite(e) ? e : 1.0,
          lm.length - 1));
    }
    // the servers the coordinator would hand out as calibration servers: fitted from >= D+1
    // landmarks within calibrationMaxError (ReedServiceImpl's calibrators)
    List<CalibrationCandidate> serverCandidates = new ArrayList<>();
    if (s.calibrationNear() != EvalSettings.CalibrationNear.LANDMARKS) {
      for (int v : servers) {
        if (fitError[v] <= cfg.calibrationMaxError()) {
          serverCandidates.add(new CalibrationCandidate(Integer.toString(v), coords[v], fitError[v], lm.length));
        }
      }
    }
    List<Future<ClientRun>> futures = new ArrayList<>();
    for (int c : clientNodes) {
      futures.add(pool.submit(() -> simulateClient(c, seed, lm, lmCoords, candidates, serverCandidates, servers, coords,
          landmarkRtt, keepSequences)));
    }
    List<ClientResult> results = new ArrayList<>();
    Map<Integer, Sequence> sequences = new LinkedHashMap<>();
    List<double[]> errs = new ArrayList<>();
    int failed = 0;
    for (Future<ClientRun> f : futures) {
      ClientRun r = f.get();
      if (r == null) {
        failed++;
        continue;
      }
      results.add(r.result());
      errs.add(r.relErrors());
      if (keepSequences) {
        sequences.put(r.result().client(), r.sequence());
      }
    }
    double[] pooled = errs.stream().flatMapToDouble(Arrays::stream).toArray();
    return new Output(seed, lm, emb, coords, fitError, results, pooled, sequences, unpositioned, failed);
  }

  /** One client's run, or null when the client cannot calibrate (too few answered calibration probes). */
  private ClientRun simulateClient(int c, long seed, int[] lm, List<Coordinate> lmCoords,
      List<CalibrationCandidate> candidates, List<CalibrationCandidate> serverCandidates, int[] allServers,
      Coordinate[] coords, double[][] landmarkRtt, boolean keepSequence) {
    // calibration set
    List<Coordinate> calCoords = new ArrayList<>();
    List<Integer> calNodes = new ArrayList<>();
    List<CalibrationCandidate> pool = new ArrayList<>();
    for (CalibrationCandidate cc : candidates) {
      if (Integer.parseInt(cc.key()) != c) {
        pool.add(cc);
      }
    }
    List<CalibrationCandidate> chosen = pool;
    List<CalibrationCandidate> nearServers = new ArrayList<>(); // probed first in the order, below
    if (s.calibration() > 0 && s.calibrationNear() != EvalSettings.CalibrationNear.LANDMARKS) {
      chosen = spreadSet(c, seed, pool);
      java.util.Set<String> landmarkKeys = new java.util.HashSet<>();
      pool.forEach(cc -> landmarkKeys.add(cc.key()));
      for (CalibrationCandidate cc : nearBatch(c, chosen, pool, serverCandidates)) {
        (landmarkKeys.contains(cc.key()) ? chosen : nearServers).add(cc);
      }
    } else if (s.calibration() > 0 && s.calibration() < pool.size()) {
      chosen = calibrationSet(c, seed, pool);
    }
    for (CalibrationCandidate cc : chosen) {
      calCoords.add(cc.coordinate());
      calNodes.add(Integer.parseInt(cc.key()));
    }
    int calib = calNodes.size();
    double[] calRtt = new double[calib];
    for (int k = 0; k < calib; k++) {
      calRtt[k] = m.rtt(c, calNodes.get(k)); // measured by the client
    }
    Coordinate me;
    Coordinate meAll;
    try {
      me = positioner.position(calCoords, calRtt, null).coordinate();
      if (chosen == pool) {
        meAll = me;
      } else {
        List<Coordinate> allCoords = new ArrayList<>();
        double[] allRtt = new double[pool.size()];
        for (int k = 0; k < pool.size(); k++) {
          allCoords.add(pool.get(k).coordinate());
          allRtt[k] = m.rtt(c, Integer.parseInt(pool.get(k).key()));
        }
        meAll = positioner.position(allCoords, allRtt, null).coordinate();
      }
    } catch (IllegalArgumentException tooFew) {
      return null;
    }
    // the client's server list: every positioned server but itself
    int ns = 0;
    int[] srv = new int[allServers.length];
    for (int v : allServers) {
      if (v != c) {
        srv[ns++] = v;
      }
    }
    srv = Arrays.copyOf(srv, ns);
    int[] firstProbes = new int[nearServers.size()];
    for (int k = 0; k < firstProbes.length; k++) {
      firstProbes[k] = Arrays.binarySearch(srv, Integer.parseInt(nearServers.get(k).key()));
    }
    // what the landmark RTTs say beside the coordinates: with every landmark (the accuracy of the
    // system) and with the landmarks this client calibrated against (what it can use itself)
    double[] clientAll = new double[lm.length];
    double[] clientCal = new double[lm.length];
    Arrays.fill(clientCal, Double.NaN);
    for (int k = 0; k < lm.length; k++) {
      clientAll[k] = lm[k] == c ? Double.NaN : m.rtt(c, lm[k]);
      if (calNodes.contains(lm[k])) {
        clientCal[k] = clientAll[k];
      }
    }
    LandmarkComparison[] comparedAll = null;
    LandmarkComparison[] comparedCal = null;
    if (s.comparison()) {
      comparedAll = new LandmarkComparison[ns];
      comparedCal = new LandmarkComparison[ns];
      for (int j = 0; j < ns; j++) {
        comparedAll[j] = LandmarkComparison.between(clientAll, landmarkRtt[srv[j]]);
        comparedCal[j] = LandmarkComparison.between(clientCal, landmarkRtt[srv[j]]);
      }
    }
    double[] actual = new double[ns];
    Coordinate[] sc = new Coordinate[ns];
    for (int j = 0; j < ns; j++) {
      actual[j] = m.rtt(c, srv[j]);
      sc[j] = coords[srv[j]];
    }
    // accuracy of the coordinate system: the client positioned from every landmark
    double[] rel = relativeErrors(meAll, sc, actual, comparedAll);
    double[] relSorted = rel.clone();
    Arrays.sort(relSorted);
    if (accuracyOnly) {
      return new ClientRun(new ClientResult(c, calib, Ranks.quantile(relSorted, 0.5), Ranks.quantile(relSorted, 0.9),
          Double.NaN, Double.NaN, Double.NaN, 0, 0, ns, Double.NaN, Double.NaN, nearest(clientAll), Map.of()), rel, null);
    }
    double[] predAll = new double[ns];
    for (int j = 0; j < ns; j++) {
      predAll[j] = predict(meAll, sc[j], comparedAll, j);
    }
    double spearman = Ranks.spearman(predAll, actual);
    // truth
    double[] finite = Arrays.stream(actual).filter(Double::isFinite).sorted().toArray();
    int nClose = Math.min(s.nClose(), finite.length);
    double kth = nClose == 0 ? Double.NaN : finite[nClose - 1];
    double optimalMean = 0;
    for (int k = 0; k < nClose; k++) {
      optimalMean += finite[k] / nClose;
    }
    // probe in order; with re-positioning the order learns from every RTT measured (AdaptiveOrder);
    // without, the same order with learning off (refit limit 0): the static ranking
    int[] order = new int[ns];
    double[] orderPred = new double[ns];
    double[] orderRtt = new double[ns];
    AdaptiveOrder ao = new AdaptiveOrder(cfg, s.reposition() ? adaptive : frozen, calCoords, calRtt,
        Arrays.asList(sc), comparedCal);
    for (int k = 0; k < ns; k++) {
      int j = k < firstProbes.length ? firstProbes[k] : ao.next();
      order[k] = j;
      orderPred[k] = ao.predictedMs(j);
      orderRtt[k] = actual[j];
      ao.measured(j, actual[j]);
    }
    Coordinate finalPosition = ao.position();
    double relCal = relativeErrorMedian(me, sc, actual, comparedCal);
    double relFinal = relativeErrorMedian(finalPosition, sc, actual, comparedCal);
    // metrics on the sequence
    int seen = 0;
    int allSeen = ns;
    int correctFirst = 0;
    int answered = 0;
    for (int k = 0; k < ns; k++) {
      double r = orderRtt[k];
      if (Double.isFinite(r)) {
        if (answered < s.nClose() && r <= kth) {
          correctFirst++;
        }
        answered++;
        if (r <= kth) {
          seen++;
          if (seen == nClose) {
            allSeen = k + 1;
            break;
          }
        }
      }
    }
    double p10 = nClose == 0 ? Double.NaN : Math.min(1.0, correctFirst / (double) nClose);
    int[] perm = new int[ns];
    for (int j = 0; j < ns; j++) {
      perm[j] = j;
    }
    SplittableRandom rnd = new SplittableRandom(seed * 1_000_003L + c);
    for (int j = ns - 1; j > 0; j--) {
      int t = rnd.nextInt(j + 1);
      int x = perm[j];
      perm[j] = perm[t];
      perm[t] = x;
    }
    int rseen = 0;
    int randomAll = ns;
    for (int k = 0; k < ns; k++) {
      double r = actual[perm[k]];
      if (Double.isFinite(r) && r <= kth && ++rseen == nClose) {
        randomAll = k + 1;
        break;
      }
    }
    Map<String, PolicyOutcome> policies = new LinkedHashMap<>();
    evaluate(policies, "first", () -> AutoStopPolicy.firstNClose(s.nClose()), orderPred, orderRtt, calib, kth,
        Double.NaN, actual);
    evaluate(policies, "intelligent", () -> AutoStopPolicy.intelligentNClose(s.nClose(), s.window(), s.windowMarginMs()), orderPred,
        orderRtt, calib, kth, Double.NaN, actual);
    for (double stop : EvalSettings.RTT_STOPS) {
      evaluate(policies, "rttstop" + (int) stop, () -> AutoStopPolicy.rttStop(stop, EvalSettings.RTT_STOP_WINDOW),
          orderPred, orderRtt, calib, kth, stop, actual);
    }
    evaluate(policies, "exhaustive", AutoStopPolicy::exhaustive, orderPred, orderRtt, calib, kth, Double.NaN, actual);
    ClientResult cr = new ClientResult(c, calib, relSorted.length == 0 ? Double.NaN : Ranks.quantile(relSorted, 0.5),
        relSorted.length == 0 ? Double.NaN : Ranks.quantile(relSorted, 0.9), spearman, p10, optimalMean,
        allSeen + calib, randomAll, ns, relCal, relFinal, nearest(clientAll), policies);
    Sequence seq = null;
    if (keepSequence) {
      int[] nodes = new int[ns];
      for (int k = 0; k < ns; k++) {
        nodes[k] = srv[order[k]];
      }
      seq = new Sequence(nodes, orderPred, orderRtt);
    }
    return new ClientRun(cr, rel, seq);
  }

  /** The first calibration phase: the {@code calibrationSpread} landmarks Algorithm 3 spreads. */
  private List<CalibrationCandidate> spreadSet(int c, long seed, List<CalibrationCandidate> pool) {
    int spread = Math.max(Math.min(s.calibrationSpread(), s.calibration()), cfg.minAnchors());
    return new ArrayList<>(new CalibrationSelector(cfg).select(pool, spread, c + 7919L * seed));
  }

  /**
   * The client's calibration landmarks, probed in two phases: Algorithm 3 spreads the first
   * {@code calibrationSpread}; then, one at a time, the landmark nearest to the position the client
   * has so far (CalibrationSelector#nearest), until {@code calibration} are probed.
   */
  private List<CalibrationCandidate> calibrationSet(int c, long seed, List<CalibrationCandidate> pool) {
    CalibrationSelector selector = new CalibrationSelector(cfg);
    List<CalibrationCandidate> chosen = spreadSet(c, seed, pool);
    java.util.Set<String> keys = new java.util.HashSet<>();
    chosen.forEach(cc -> keys.add(cc.key()));
    while (chosen.size() < s.calibration()) {
      List<Coordinate> at = new ArrayList<>();
      double[] rtt = new double[chosen.size()];
      for (int k = 0; k < chosen.size(); k++) {
        at.add(chosen.get(k).coordinate());
        rtt[k] = m.rtt(c, Integer.parseInt(chosen.get(k).key()));
      }
      List<CalibrationCandidate> next;
      try {
        next = selector.nearest(pool, positioner.position(at, rtt, null).coordinate(), 1, keys);
      } catch (IllegalArgumentException tooFewAnswers) {
        break; // the caller's positioning reports it
      }
      if (next.isEmpty()) {
        break;
      }
      chosen.add(next.get(0));
      keys.add(next.get(0).key());
    }
    return chosen;
  }

  /**
   * The second calibration phase as the client SDK runs it (client's Calibration): one batch of the
   * calibration points nearest to the position from the spread phase, never the client itself;
   * with BEACONS the landmarks within nearBeaconMaxMs first, then landmarks and well-fitted
   * servers alike; empty when the spread phase cannot position it.
   */
  private List<CalibrationCandidate> nearBatch(int c, List<CalibrationCandidate> spread,
      List<CalibrationCandidate> landmarks, List<CalibrationCandidate> servers) {
    int count = s.calibration() - spread.size();
    if (count <= 0) {
      return List.of();
    }
    List<Coordinate> at = new ArrayList<>();
    double[] rtt = new double[spread.size()];
    java.util.Set<String> exclude = new java.util.HashSet<>();
    for (int k = 0; k < spread.size(); k++) {
      at.add(spread.get(k).coordinate());
      rtt[k] = m.rtt(c, Integer.parseInt(spread.get(k).key()));
      exclude.add(spread.get(k).key());
    }
    exclude.add(Integer.toString(c));
    Coordinate rough;
    try {
      rough = positioner.position(at, rtt, null).coordinate();
    } catch (IllegalArgumentException tooFewAnswers) {
      return List.of(); // the caller's positioning reports it
    }
    CalibrationSelector selector = new CalibrationSelector(cfg);
    List<CalibrationCandidate> near = new ArrayList<>();
    if (s.calibrationNear() == EvalSettings.CalibrationNear.BEACONS) {
      for (CalibrationCandidate l : selector.nearest(landmarks, rough, count, exclude)) {
        if (rough.distanceTo(l.coordinate()) <= s.nearBeaconMaxMs()) {
          near.add(l);
          exclude.add(l.key());
        }
      }
    }
    List<CalibrationCandidate> all = new ArrayList<>(landmarks);
    all.addAll(servers);
    near.addAll(selector.nearest(all, rough, count - near.size(), exclude));
    return near;
  }

  private static double nearest(double[] rttMs) {
    return Arrays.stream(rttMs).filter(Double::isFinite).min().orElse(Double.NaN);
  }

  private double predict(Coordinate client, Coordinate server, LandmarkComparison[] compared, int j) {
    double d = client.distanceTo(server);
    return compared == null ? d : compared[j].refine(d, s.lowerBoundBeyondMs());
  }

  private double[] relativeErrors(Coordinate me, Coordinate[] sc, double[] actual, LandmarkComparison[] compared) {
    double[] rel = new double[sc.length];
    int nr = 0;
    for (int j = 0; j < sc.length; j++) {
      if (Double.isFinite(actual[j]) && actual[j] > 0) {
        rel[nr++] = Math.abs(predict(me, sc[j], compared, j) - actual[j]) / actual[j];
      }
    }
    return Arrays.copyOf(rel, nr);
  }

  private double relativeErrorMedian(Coordinate me, Coordinate[] sc, double[] actual, LandmarkComparison[] compared) {
    double[] r = relativeErrors(me, sc, actual, compared);
    Arrays.sort(r);
    return Ranks.quantile(r, 0.5);
  }

  private void evaluate(Map<String, PolicyOutcome> out, String name, Supplier<AutoStopPolicy> factory,
      double[] pred, double[] rtt, int calib, double kth, double playableMs, double[] actual) {
    AutoStopPolicy p = factory.get();
    int k = 0;
    while (k < rtt.length) {
      if (p.stopBefore(pred[k])) {
        break;
      }
      k++;
      if (p.observe(pred[k - 1], rtt[k - 1])) {
        break;
      }
    }
    double[] seenRtt = Arrays.stream(rtt, 0, k).filter(Double::isFinite).sorted().toArray();
    int nf = Math.min(s.nClose(), seenRtt.length);
    double mean = Double.NaN;
    double median = Double.NaN;
    int correct = 0;
    if (nf > 0) {
      mean = 0;
      for (int i = 0; i < nf; i++) {
        mean += seenRtt[i] / nf;
        if (seenRtt[i] <= kth) {
          correct++;
        }
      }
      median = Ranks.quantile(Arrays.copyOf(seenRtt, nf), 0.5);
    }
    double precision = Math.min(1.0, correct / (double) s.nClose());
    int playableFound = -1;
    int playableTotal = -1;
    if (!Double.isNaN(playableMs)) {
      playableFound = 0;
      for (double v : seenRtt) {
        if (v <= playableMs) {
          playableFound++;
        }
      }
      playableTotal = 0;
      for (double v : actual) {
        if (Double.isFinite(v) && v <= playableMs) {
          playableTotal++;
        }
      }
    }
    out.put(name, new PolicyOutcome(calib + k, mean, median, precision, playableFound, playableTotal));
  }
}
