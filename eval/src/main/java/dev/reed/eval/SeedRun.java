package dev.reed.eval;

import dev.reed.coordinates.Stats;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.CoordinateConfig;
import dev.reed.coordinates.HostPositioner;
import dev.reed.coordinates.LandmarkComparison;
import dev.reed.coordinates.LandmarkEmbedder;
import dev.reed.coordinates.LandmarkEmbedding;
import dev.reed.coordinates.PositionFit;
import dev.reed.coordinates.calibration.CalibrationCandidate;
import dev.reed.coordinates.discovery.Calibration;
import dev.reed.coordinates.discovery.CalibrationPoint;
import dev.reed.coordinates.discovery.DiscoveryPolicy;
import dev.reed.coordinates.discovery.InsufficientCalibrationException;
import dev.reed.coordinates.discovery.PageRequest;
import dev.reed.coordinates.discovery.ProbeOrder;
import dev.reed.coordinates.geo.EstimatorModel;
import dev.reed.coordinates.geo.FusedEstimator;
import dev.reed.coordinates.geo.Place;
import dev.reed.coordinates.reports.ClientReport;
import dev.reed.coordinates.reports.NeighbourhoodCorrections;
import dev.reed.coordinates.reports.ReportScreen;
import dev.reed.coordinates.reports.ReportedServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * One landmark seed of the paper's section 5 method, offline on a measured matrix: choose and embed
 * landmarks from their own sub-matrix, position every other node from its RTTs to the landmarks
 * only, then let each client calibrate, rank, probe in order (re-fitting itself from what it has
 * measured) and apply each auto-stop policy to its probe sequence.
 */
final class SeedRun {

  /** A client's probe order: server node, predicted RTT when it was probed, measured RTT (NaN = none). */
  record Sequence(int[] servers, double[] predicted, double[] rtt) {}

  /**
   * One seed's outcome; {@code servers} are the positioned non-landmark nodes (a client's list is
   * them but itself), {@code landmarkRtt} every node's RTTs as each landmark measured them,
   * {@code calibrations} what each client's calibration measured (other methods reuse it, counted).
   */
  record Output(long seed, int[] landmarks, LandmarkEmbedding embedding, Coordinate[] coords, double[] fitError,
      int[] servers, double[][] landmarkRtt, List<ClientResult> clients, double[] relErrors, Map<Integer, Sequence> sequences, int unpositioned,
      int failedClients, SimulatedCoordinator coordinator, Map<Integer, Calibration> calibrations, Located located,
      Reports reports, LyingLandmarks.Outcome lying) {}

  /**
   * What the reporting half sent: reports, of which from liars, RTTs kept, RTTs dropped
   * by reason; all 0 without {@code --reports}.
   */
  record Reports(int sent, int liars, int kept, Map<ReportScreen.Reason, Integer> dropped, int honestRefused,
      int promotedServers, ReportAttack.Outcome attack) {
    static final Reports NONE = new Reports(0, 0, 0, Map.of(), 0, 0, ReportAttack.Outcome.NONE);

    int droppedCount() {
      return dropped.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  /**
   * What the seed's deployment knows before any client comes: the landmarks, their embedding, every
   * node's coordinate, the positioned servers and every node's RTTs as each landmark measured them.
   */
  record Deployment(int[] landmarks, LandmarkEmbedding embedding, Coordinate[] coords, int[] servers,
      double[][] landmarkRtt) {}

  /**
   * What the simulated coordinator knows of locations, when the nodes carry them: the fused
   * estimator trained on the deployment (its servers are the seed's servers in order, each where
   * the GeoIP database puts it), the estimator model it was trained with, and where each node is
   * believed to be (every node displaced by {@code --geo-error}, servers and clients alike;
   * landmarks are the deployment's own machines, at their exact places; null = unknown).
   */
  record Located(FusedEstimator estimator, Place[] believed, EstimatorModel model) {}

  /** One client's simulation: its result, its relative errors (pooled later) and its probe order. */
  private record ClientRun(ClientResult result, double[] relErrors, Sequence sequence, Calibration calibration,
      ClientReport report) {}

  /** Replies a reporter's discovery collects before it stops: the SDK's default First N_close, 40. */
  static final int REPORTED_REPLIES = 40;

  private final RttMatrix m;
  private final EvalSettings s;
  private final CoordinateConfig cfg;
  private final HostPositioner positioner;

  private final boolean accuracyOnly;
  private final DiscoveryPolicy policy;
  private final SequenceScore score;

  SeedRun(RttMatrix m, EvalSettings s, boolean accuracyOnly) {
    this.accuracyOnly = accuracyOnly;
    this.policy = new DiscoveryPolicy(s.model(), s.coordinates());
    this.score = new SequenceScore(s);
    this.m = m;
    this.s = s;
    this.cfg = s.coordinates();
    this.positioner = new HostPositioner(cfg);
  }

  Output run(long seed, boolean keepSequences, ExecutorService pool) throws Exception {
    int n = m.size();
    int hosts = m.hosts();
    RttMatrix measured = m.hostsOnly();
    int[] chosen = s.landmarkList() != null ? s.landmarkList().clone()
        : s.strategy().choose(measured, s.landmarks(), seed, s.kmedoidsCapMs());
    if (chosen.length < cfg.dimensions() + 2) {
      throw new IllegalArgumentException("need at least D+2 = " + (cfg.dimensions() + 2) + " landmarks, got " + chosen.length);
    }
    // lying landmarks: the deployment's windows with a lying landmark; the quarantined ones are neither anchors nor servers
    LyingLandmarks.Outcome lying = s.lying().on() ? new LyingLandmarks(s.lying(), cfg).simulate(measured, chosen, seed) : null;
    boolean[] isLandmark = new boolean[n];
    for (int v : chosen) {
      isLandmark[v] = true;
    }
    int[] lm = lying != null ? lying.anchors() : chosen;
    LandmarkEmbedding emb = new LandmarkEmbedder(cfg, new SplittableRandom(seed)).embed(lying != null ? lying.mesh() : m.sub(lm), null);
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
        r[k] = lm[k] == v ? 0 : lying != null && v < hosts ? lying.rtt()[v][k] : m.rtt(lm[k], v); // measured by the landmark
      }
      landmarkRtt[v] = r;
      if (isLandmark[v] || v >= hosts) {
        continue; // a landmark, or a player: clients are not positioned as servers
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
      boolean client = s.clients() == EvalSettings.ClientMode.LANDMARKS ? isLandmark[v]
          : hosts < n ? v >= hosts && !isLandmark[m.home()[v]] // players near every host but the landmarks
          : !isLandmark[v];
      if (client && v % s.clientStride() == 0) {
        clientNodes.add(v);
      }
    }
    // what the simulated coordinator knows: every landmark's beacon, the servers fitted well enough to
    // calibrate against (ReedServiceImpl's calibrators), and the landmarks' RTTs to each server
    List<CalibrationCandidate> beacons = new ArrayList<>();
    for (int k = 0; k < lm.length; k++) {
      double e = emb.relativeErrors()[k];
      beacons.add(new CalibrationCandidate(Integer.toString(lm[k]), lmCoords.get(k), Double.isFinite(e) ? e : 1.0,
          lm.length - 1));
    }
    List<CalibrationCandidate> calibrators = new ArrayList<>(beacons);
    for (int v : servers) {
      if (fitError[v] <= cfg.calibrationMaxError()) {
        calibrators.add(new CalibrationCandidate(Integer.toString(v), coords[v], fitError[v], lm.length));
      }
    }
    List<Map<String, Double>> landmarkMs = new ArrayList<>(n);
    for (int v = 0; v < n; v++) {
      Map<String, Double> byLandmark = new java.util.HashMap<>();
      for (int k = 0; k < lm.length; k++) {
        if (Double.isFinite(landmarkRtt[v][k]) && lm[k] != v) {
          byLandmark.put(Integer.toString(lm[k]), landmarkRtt[v][k]);
        }
      }
      landmarkMs.add(Map.copyOf(byLandmark));
    }
    Located located = locate(new Deployment(lm, emb, coords, servers, landmarkRtt), seed);
    SimulatedCoordinator coordinator = new SimulatedCoordinator(cfg, beacons, calibrators, servers, coords, landmarkMs,
        s.pageSize(), located, lm);
    Reports reports = Reports.NONE;
    Learned learned = null;
    if (s.reports().split()) {
      List<Integer> reporters = new ArrayList<>();
      List<Integer> scored = new ArrayList<>();
      for (int i = 0; i < clientNodes.size(); i++) {
        (i % 2 == 0 ? reporters : scored).add(clientNodes.get(i));
      }
      clientNodes = scored;
      learned = s.reports().withheld() ? null : learn(reporters, seed, lm, lmCoords, coordinator, servers, coords, landmarkRtt, landmarkMs, located, pool);
      reports = learned == null ? Reports.NONE : learned.reports();
    }
    List<Future<ClientRun>> futures = new ArrayList<>();
    for (int c : clientNodes) {
      futures.add(pool.submit(() -> simulateClient(c, seed, lm, lmCoords, coordinator, servers, coords, landmarkRtt,
          keepSequences, false)));
    }
    List<ClientResult> results = new ArrayList<>();
    Map<Integer, Sequence> sequences = new LinkedHashMap<>();
    Map<Integer, Calibration> calibrations = new java.util.HashMap<>();
    List<double[]> errs = new ArrayList<>();
    int failed = 0;
    for (Future<ClientRun> f : futures) {
      ClientRun r = f.get();
      if (r == null) {
        failed++;
        continue;
      }
      results.add(r.result());
      calibrations.put(r.result().client(), r.calibration());
      errs.add(r.relErrors());
      if (keepSequences) {
        sequences.put(r.result().client(), r.sequence());
      }
    }
    if (learned != null && learned.plan() != null) {
      reports = learned.attacked(calibrations, servers, coords, s.nClose(), m);
    }
    double[] pooled = errs.stream().flatMapToDouble(Arrays::stream).toArray();
    return new Output(seed, lm, emb, coords, fitError, servers, landmarkRtt, results, pooled, sequences, unpositioned, failed, coordinator,
        Map.copyOf(calibrations), located, reports, lying);
  }

  /**
   * What the coordinator learned from the reporting half; with a {@link ReportAttack}, also the
   * attacker's plan and what the honest reports alone taught, to measure the attack against.
   */
  private record Learned(Reports reports, ReportAttack.Plan plan, NeighbourhoodCorrections honestOnly,
      NeighbourhoodCorrections all) {
    /** The reports with the attack's rank gains on the scored clients. */
    Reports attacked(Map<Integer, Calibration> scored, int[] servers, Coordinate[] coords, int nClose, RttMatrix m) {
      ReportAttack.Outcome o = reports.attack();
      ReportAttack.Gains gains = ReportAttack.rankGains(plan, scored, servers, coords, honestOnly, all, nClose, m);
      return new Reports(reports.sent(), reports.liars(), reports.kept(), reports.dropped(), reports.honestRefused(),
          reports.promotedServers(), new ReportAttack.Outcome(o.reports(), o.believed(), gains, o.targetsFlagged()));
    }
  }

  /**
   * The reporting half discovers (against a coordinator without reports), each sends what it
   * measured, lying if it is one of the liars, and the coordinator screens and learns them; then
   * the attacker's reports, if any.
   */
  private Learned learn(List<Integer> reporters, long seed, int[] lm, List<Coordinate> lmCoords,
      SimulatedCoordinator coordinator, int[] servers, Coordinate[] coords, double[][] landmarkRtt,
      List<Map<String, Double>> landmarkMs, Located located, ExecutorService pool) throws Exception {
    List<Future<ClientRun>> runs = new ArrayList<>();
    for (int c : reporters) {
      runs.add(pool.submit(() -> simulateClient(c, seed, lm, lmCoords, coordinator, servers, coords, landmarkRtt, false,
          true)));
    }
    Map<String, ReportedServer> known = new java.util.HashMap<>();
    for (int j = 0; j < servers.length; j++) {
      int v = servers[j];
      known.put(Integer.toString(v), new ReportedServer(coords[v], landmarkMs.get(v),
          located == null ? null : located.estimator().data().servers()[j]));
    }
    ReportSimulation sim = s.reports();
    ReportScreen screen = new ReportScreen(sim.config());
    NeighbourhoodCorrections learned = new NeighbourhoodCorrections(sim.config());
    SplittableRandom liarDice = new SplittableRandom(seed * 7_368_787L + 11);
    ReportAttack attack = sim.attack();
    NeighbourhoodCorrections honestOnly = attack.on() ? new NeighbourhoodCorrections(sim.config()) : null;
    int sent = 0;
    int liars = 0;
    int kept = 0;
    int honestRefused = 0;
    Map<ReportScreen.Reason, Integer> dropped = new java.util.EnumMap<>(ReportScreen.Reason.class);
    for (Future<ClientRun> f : runs) {
      ClientRun r = f.get();
      if (r == null || r.report() == null) {
        continue;
      }
      ClientReport report = r.report();
      boolean liar = liarDice.nextDouble() < sim.liars();
      if (liar) {
        report = lie(report, sim.liarKind(), liarDice);
        liars++;
      }
      sent++;
      ReportScreen.Screened screened = screen.screen(report, known::get);
      screened.dropped().forEach((reason, n) -> dropped.merge(reason, n, Integer::sum));
      honestRefused += !liar && screened.kept().isEmpty() ? 1 : 0;
      kept += learned.add(screened);
      if (honestOnly != null) {
        honestOnly.add(screened);
      }
    }
    int promoted = learned.promotedServers();
    ReportAttack.Plan plan = null;
    ReportAttack.Outcome outcome = ReportAttack.Outcome.NONE;
    if (attack.on()) {
      plan = attack.plan(servers, coords, seed);
      int believed = 0;
      List<ClientReport> forged = attack.reports(plan, servers, coords, landmarkMs, known, sim.config(), seed);
      for (ClientReport report : forged) {
        ReportScreen.Screened screened = screen.screen(report, known::get);
        believed += screened.kept().isEmpty() ? 0 : 1;
        learned.add(screened);
      }
      int flagged = 0;
      for (int t : plan.promoted()) flagged += learned.promoted(Integer.toString(t)) ? 1 : 0;
      outcome = new ReportAttack.Outcome(forged.size(), believed, ReportAttack.Outcome.NONE.gains(), flagged);
    }
    coordinator.learned(learned);
    return new Learned(new Reports(sent, liars, kept, Map.copyOf(dropped), honestRefused, promoted, outcome), plan,
        honestOnly, learned);
  }

  /** The report a liar sends instead: the same servers, 5 ms or a random 1-500 ms each. */
  private static ClientReport lie(ClientReport honest, ReportSimulation.LiarKind kind, SplittableRandom dice) {
    Map<String, Double> lies = new java.util.HashMap<>();
    for (String server : honest.serverRttMs().keySet()) {
      lies.put(server, kind == ReportSimulation.LiarKind.FIVE_MS ? 5.0 : 1 + dice.nextDouble() * 499);
    }
    return new ClientReport(honest.position(), honest.location(), honest.landmarkRttMs(), lies, honest.timeouts(),
        honest.groups(), honest.atMillis());
  }

  /**
   * The coordinator's location knowledge for this seed, or null when the nodes carry no locations
   * (then nothing changes): the fused estimator learned from what the deployment measures, and the
   * nodes' believed locations.
   */
  private Located locate(Deployment d, long seed) {
    NodeTable nodes = m.nodes();
    if (!nodes.hasLocations()) {
      return null;
    }
    GeoPoint[] noisy = s.geoError().displace(nodes, seed);
    Place[] believed = new Place[nodes.size()];
    for (int v = 0; v < believed.length; v++) {
      believed[v] = noisy[v] == null ? null : Place.of(noisy[v].lat(), noisy[v].lon());
    }
    double bound = s.model().comparison() ? s.model().lowerBoundBeyondMs() : Double.NaN;
    FusedEstimator fused = new FusedTraining(m, cfg, s.estimator(), bound).train(d, believed);
    return new Located(fused, believed, s.estimator());
  }

  /**
   * One client's run, or null when the client cannot calibrate (too few answered calibration
   * probes): the client SDK's discovery policy against the simulated coordinator, every probe
   * answered from the matrix at once.
   */
  private ClientRun simulateClient(int c, long seed, int[] lm, List<Coordinate> lmCoords, SimulatedCoordinator coordinator,
      int[] allServers, Coordinate[] coords, double[][] landmarkRtt, boolean keepSequence, boolean report) {
    SimulatedCoordinator.Session session = coordinator.session(c, c + 7919L * seed);
    Calibration cal;
    try {
      cal = policy.calibrate(session, (batch, minReplies) -> {
        Map<String, Double> replies = new java.util.HashMap<>();
        for (CalibrationPoint p : batch) {
          double r = m.rtt(c, Integer.parseInt(p.key())); // measured by the client
          if (Double.isFinite(r)) {
            replies.put(p.key(), r);
          }
        }
        return replies;
      });
    } catch (InsufficientCalibrationException tooFew) {
      return null;
    }
    if (cal.position() == null) {
      return null; // the SDK would ask the coordinator's Locate; the evaluator has no other solver
    }
    Coordinate me = cal.position();
    int calib = cal.probes();
    Coordinate meAll;
    try {
      List<Coordinate> allCoords = new ArrayList<>();
      double[] allRtt = new double[lm.length];
      int k = 0;
      for (int l = 0; l < lm.length; l++) {
        if (lm[l] != c) {
          allCoords.add(lmCoords.get(l));
          allRtt[k++] = m.rtt(c, lm[l]);
        }
      }
      meAll = positioner.position(allCoords, Arrays.copyOf(allRtt, k), null).coordinate();
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
    // what the landmark RTTs say beside the coordinates: with every landmark (the accuracy of the
    // system) and with the landmarks this client calibrated against (what it can use itself)
    double[] clientAll = new double[lm.length];
    double[] clientCal = new double[lm.length];
    Arrays.fill(clientCal, Double.NaN);
    Map<String, Double> calibrated = cal.landmarkRttMs();
    for (int k = 0; k < lm.length; k++) {
      clientAll[k] = lm[k] == c ? Double.NaN : m.rtt(c, lm[k]);
      clientCal[k] = calibrated.getOrDefault(Integer.toString(lm[k]), Double.NaN);
    }
    LandmarkComparison[] comparedAll = null;
    LandmarkComparison[] comparedCal = null;
    if (s.model().comparison()) {
      comparedAll = new LandmarkComparison[ns];
      comparedCal = new LandmarkComparison[ns];
      for (int j = 0; j < ns; j++) {
        comparedAll[j] = LandmarkComparison.between(clientAll, landmarkRtt[srv[j]]);
        comparedCal[j] = LandmarkComparison.between(clientCal, landmarkRtt[srv[j]]);
      }
    }
    double[] actual = new double[ns];
    Coordinate[] sc = new Coordinate[ns];
    Map<String, Integer> index = new java.util.HashMap<>();
    for (int j = 0; j < ns; j++) {
      actual[j] = m.rtt(c, srv[j]);
      sc[j] = coords[srv[j]];
      index.put(Integer.toString(srv[j]), j);
    }
    // accuracy of the coordinate system: the client positioned from every landmark
    double[] rel = relativeErrors(meAll, sc, actual, comparedAll);
    double[] relSorted = rel.clone();
    Arrays.sort(relSorted);
    if (accuracyOnly) {
      return new ClientRun(new ClientResult(c, calib, Stats.quantile(relSorted, 0.5), Stats.quantile(relSorted, 0.9),
          Double.NaN, Double.NaN, Double.NaN, 0, 0, ns, Double.NaN, Double.NaN, Double.NaN, nearest(clientAll), Map.of()), rel, null, cal,
          null);
    }
    double[] predAll = new double[ns];
    for (int j = 0; j < ns; j++) {
      predAll[j] = predict(meAll, sc[j], comparedAll, j);
    }
    double spearman = Ranks.spearman(predAll, actual);
    SequenceScore.Truth truth = score.truth(actual);
    // the SDK's probe order, every page and reply delivered at once
    ProbeOrder order = policy.order(cal, me, s.pageSize());
    int[] seqIndex = new int[ns];
    double[] orderPred = new double[ns];
    double[] orderRtt = new double[ns];
    int[] probesAt = new int[ns]; // probes sent once the k-th server is known: a calibration server costs none again
    int probes = calib;
    int len = 0;
    while (len < ns) {
      PageRequest want;
      while ((want = order.pageRequest()) != null) {
        session.serve(order, want);
      }
      ProbeOrder.Pick pick = order.next();
      if (pick == null) {
        break;
      }
      Integer j = index.get(pick.candidate().key());
      double r = j == null ? Double.NaN : actual[j];
      if (pick.measured()) {
        r = cal.rttMs().get(pick.candidate().key());
      } else {
        probes++;
      }
      if (Double.isNaN(r)) {
        order.noReply(pick.candidate().key());
      } else {
        order.replied(pick.candidate().key(), r);
      }
      if (j == null) {
        continue; // not one of this client's servers (cannot happen: the coordinator lists only those)
      }
      seqIndex[len] = j;
      probesAt[len] = probes;
      orderPred[len] = pick.predictedMs();
      orderRtt[len] = r;
      len++;
    }
    seqIndex = Arrays.copyOf(seqIndex, len);
    orderPred = Arrays.copyOf(orderPred, len);
    orderRtt = Arrays.copyOf(orderRtt, len);
    probesAt = Arrays.copyOf(probesAt, len);
    Coordinate finalPosition = order.position();
    double relCal = relativeErrorMedian(me, sc, actual, comparedCal);
    double relFinal = relativeErrorMedian(finalPosition, sc, actual, comparedCal);
    int allSeen = score.allNearestSeen(orderRtt, probesAt, truth, probes + ns - len);
    double p10 = score.precisionAtNClose(orderRtt, truth);
    int[] perm = Orders.shuffled(ns, new SplittableRandom(seed * 1_000_003L + c));
    int rseen = 0;
    int randomAll = ns;
    for (int k = 0; k < ns; k++) {
      double r = actual[perm[k]];
      if (Double.isFinite(r) && r <= truth.kthMs() && ++rseen == truth.nClose()) {
        randomAll = k + 1;
        break;
      }
    }
    Map<String, PolicyOutcome> policies = score.policies(orderPred, orderRtt, probesAt, calib, truth);
    ClientResult cr = new ClientResult(c, calib, relSorted.length == 0 ? Double.NaN : Stats.quantile(relSorted, 0.5),
        relSorted.length == 0 ? Double.NaN : Stats.quantile(relSorted, 0.9), spearman, p10, truth.optimalMeanMs(),
        allSeen, randomAll, ns, relCal, relFinal, servedError(orderPred, orderRtt), nearest(clientAll), policies);
    Sequence seq = null;
    if (keepSequence) {
      int[] nodes = new int[len];
      for (int k = 0; k < len; k++) {
        nodes[k] = srv[seqIndex[k]];
      }
      seq = new Sequence(nodes, orderPred, orderRtt);
    }
    ClientReport sent = report ? report(c, me, cal, srv, seqIndex, orderRtt, coordinator) : null;
    return new ClientRun(cr, rel, seq, cal, sent);
  }

  /**
   * What the SDK reports after this discovery: its calibration, and every server it probed until
   * its default stop rule (First N_close with 40) ended the discovery, RTT or timeout.
   */
  private ClientReport report(int c, Coordinate position, Calibration cal, int[] srv, int[] seqIndex, double[] orderRtt,
      SimulatedCoordinator coordinator) {
    Map<String, Double> rtt = new java.util.HashMap<>();
    java.util.Set<String> timeouts = new java.util.HashSet<>();
    int replies = 0;
    for (int k = 0; k < seqIndex.length && replies < REPORTED_REPLIES; k++) {
      String key = Integer.toString(srv[seqIndex[k]]);
      if (Double.isFinite(orderRtt[k])) {
        rtt.put(key, orderRtt[k]);
        replies++;
      } else {
        timeouts.add(key);
      }
    }
    Place at = m.nodes().hasLocations() && coordinator.locates(c) ? coordinator.believed(c) : null;
    return new ClientReport(position, at, cal.landmarkRttMs(), rtt, timeouts, List.of("client:" + c), 0);
  }

  /** Median relative error of the handed-out predictions against the measured RTTs (replies only). */
  private static double servedError(double[] predicted, double[] rtt) {
    double[] e = new double[predicted.length];
    int n = 0;
    for (int k = 0; k < predicted.length; k++) {
      if (rtt[k] > 0 && Double.isFinite(rtt[k]) && Double.isFinite(predicted[k])) {
        e[n++] = Math.abs(predicted[k] - rtt[k]) / rtt[k];
      }
    }
    return n == 0 ? Double.NaN : Stats.median(e, n);
  }

  private static double nearest(double[] rttMs) {
    return Arrays.stream(rttMs).filter(Double::isFinite).min().orElse(Double.NaN);
  }

  private double predict(Coordinate client, Coordinate server, LandmarkComparison[] compared, int j) {
    double d = client.distanceTo(server);
    return compared == null ? d : compared[j].refine(d, s.model().lowerBoundBeyondMs());
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
    return Stats.quantile(r, 0.5);
  }
}
