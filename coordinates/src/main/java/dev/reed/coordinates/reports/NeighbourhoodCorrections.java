package dev.reed.coordinates.reports;

import dev.reed.coordinates.Coordinate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-server corrections learned from client reports and applied near where they were measured.
 * Each reported RTT becomes an observation of its server: the RTT, where the reporter was (its
 * coordinate and its calibration RTTs to the landmarks) and who sent it. A later client asking
 * about the server gets the weighted median of what reporters near it measured, weighted by a
 * Gaussian ({@link ReportConfig#kernelMs()}) of how far apart the two are, next to its own
 * coordinate prediction with weight {@link ReportConfig#priorWeight()}; the result is served as a
 * factor on that prediction. A host at a reporter's site thus inherits what the reporter measured,
 * which 15 distant landmarks cannot see: on PlanetLab half the clients have a reporter within 1 ms,
 * and its RTTs predict theirs to a median 0.2 % (docs/research/client-reports.md). A host far from
 * every reporter keeps its prediction (Nadaraya-Watson kernel regression, with a median for
 * robustness).
 *
 * <p>How far apart: the median difference of the two hosts' RTTs to the landmarks both calibrated
 * against. Hosts at one site differ by a median 0.1 ms there, hosts 1-3 ms apart by 2 ms; their
 * coordinates, fitted from a handful of landmarks each, differ by several ms either way.
 *
 * <p>Defences: one source (a group key: prefix, AS or API key) weighs at most
 * {@link ReportConfig#groupCap()} in a server's median however many reports it sends, and a full
 * server drops the oldest observation of the newcomer's own source, so a flood from one source counts
 * as one reporter and evicts nobody else's; a network (AS) has one vote per server however many
 * places it reports from ({@link ReportConfig#networkPerServer()}), so reports that copy 200 real
 * places from one AS cannot stand beside each place's real reporter as a second opinion; a median needs a majority of the nearby weight to move;
 * and no correction exceeds {@link ReportConfig#maxFactor()} either way. Reports the landmarks
 * contradict never get here ({@link ReportScreen}). Observations age out after
 * {@link ReportConfig#maxAgeMillis()}, and are forgotten when their server's coordinate moves
 * ({@link ReportConfig#movedMs()}): a server that moved is learned again.
 *
 * <p>Thread-safe: reports are added from the ingest thread while pages are served. Work per
 * (client, server): O(observations of the server), at most {@link ReportConfig#perServer()}.
 */
public final class NeighbourhoodCorrections {

  /**
   * One reported RTT: reporter position, its landmark RTTs (by {@link #landmarkIndex}, NaN where
   * it has none; shared by the observations of one report), residual, the reporter's groups, when,
   * and where the server was.
   */
  private record Observation(Coordinate reporter, double[] landmarkMs, double logRtt, double logPredicted,
      String[] groups, String network, long atMillis, Coordinate server) {}

  /**
   * A server's observations, oldest first, and each one's share of its network's vote on the server
   * ({@link ReportConfig#networkPerServer()}): the group cap over the network's observations of it.
   */
  private record Held(Observation[] obs, double[] share) {}

  /** Reporters of one server farther apart than this (ms, coordinate space) are at different places. */
  static final double FAR_APART_MS = 10;
  /**
   * Only reporters the coordinates put at least this far from a server (ms) count towards its
   * promoted flag. A discovery reports the servers nearest its client, where the coordinates
   * over-predict and honest reporters at many sites correct them downwards (a third of PlanetLab's
   * servers would be flagged); an attacker wants its server nearer for clients it is far from.
   */
  static final double PROMOTION_FAR_MS = 50;

  private final ReportConfig config;
  private final CorrectionBound bound;
  private final Map<String, Held> byServer = new ConcurrentHashMap<>();
  /** Servers flagged as promoted ({@link #promoted}), kept current as observations come and go. */
  private final Set<String> promoted = ConcurrentHashMap.newKeySet();
  /** Landmark id to its position in the landmark vectors; only grows (a few dozen ids). */
  private final Map<String, Integer> landmarkIndex = new ConcurrentHashMap<>();

  public NeighbourhoodCorrections(ReportConfig config) {
    this.config = config;
    this.bound = config.correctionBound();
  }

  /** Learns a screened report's kept RTTs; returns how many observations it added. */
  public int add(ReportScreen.Screened screened) {
    ClientReport r = screened.report();
    String[] groups = r.groups().toArray(new String[0]);
    String network = network(groups);
    double[] landmarks = vector(r.landmarkRttMs(), true);
    int added = 0;
    for (Map.Entry<String, ReportScreen.Kept> e : screened.kept().entrySet()) {
      Coordinate server = e.getValue().server().coordinate();
      double predicted = Math.max(1.0, r.position().distanceTo(server));
      double rtt = Math.max(0.1, e.getValue().rttMs());
      Observation o = new Observation(r.position(), landmarks, Math.log(rtt), Math.log(predicted), groups, network,
          r.atMillis(), server);
      Held held = byServer.compute(e.getKey(), (k, old) -> held(old == null ? new Observation[] {o} : append(old.obs(), o)));
      flag(e.getKey(), held.obs());
      added++;
    }
    return added;
  }

  /** The network a report counts as: its AS key, else its first key (its prefix). */
  private static String network(String[] groups) {
    for (String g : groups) {
      if (g.startsWith("a:")) {
        return g;
      }
    }
    return groups.length == 0 ? "" : groups[0];
  }

  /**
   * Flags or clears a server: promoted when reporters at two or more places (more than
   * {@link #FAR_APART_MS} apart, at least {@link #PROMOTION_FAR_MS} from it) report it closer than the coordinate prediction by more than one
   * network may move it ({@link CorrectionBound#maxShiftMs} with 1), from at least
   * {@link ReportConfig#promotedNetworks()} places or networks.
   */
  private void flag(String server, Observation[] obs) {
    if (obs != null && promoted(obs)) {
      promoted.add(server);
    } else {
      promoted.remove(server);
    }
  }

  private boolean promoted(Observation[] obs) {
    Set<String> networks = new HashSet<>();
    List<Coordinate> places = new ArrayList<>();
    for (Observation o : obs) {
      double predicted = Math.exp(o.logPredicted());
      if (predicted < PROMOTION_FAR_MS || Math.exp(o.logRtt()) >= predicted - bound.maxShiftMs(predicted, 1)) {
        continue;
      }
      networks.add(o.network());
      boolean seen = false;
      for (Coordinate p : places) {
        if (p.dimensions() == o.reporter().dimensions()
            && p.euclideanTo(o.reporter()) + Math.abs(p.height() - o.reporter().height()) <= FAR_APART_MS) {
          seen = true;
          break;
        }
      }
      if (!seen) {
        places.add(o.reporter());
      }
    }
    int enough = config.promotedNetworks();
    return places.size() >= 2 && (places.size() >= enough || networks.size() >= enough);
  }

  /** Landmark RTTs as a vector by {@link #landmarkIndex}; {@code learn} adds ids it has not seen. */
  private double[] vector(Map<String, Double> landmarkRttMs, boolean learn) {
    if (learn) {
      synchronized (landmarkIndex) {
        for (String id : landmarkRttMs.keySet()) {
          landmarkIndex.computeIfAbsent(id, k -> landmarkIndex.size());
        }
      }
    }
    double[] out = new double[landmarkIndex.size()];
    Arrays.fill(out, Double.NaN);
    for (Map.Entry<String, Double> e : landmarkRttMs.entrySet()) {
      Integer i = landmarkIndex.get(e.getKey());
      if (i != null && i < out.length && e.getValue() != null) {
        out[i] = e.getValue();
      }
    }
    return out;
  }

  /**
   * A server's observations with their shares of their networks' votes: 1 each with {@link
   * ReportConfig#networkPerServer()} off, else the group cap over the count of the network's
   * observations, so that however many places one AS reports a server from, its weight near any
   * client sums to at most one reporter's. A reader of the code copying 200 real places from one AS
   * would otherwise be a second opinion beside each place's real reporter; the cost is that a large
   * ISP's honest reporters at many places are one vote per server too.
   */
  private Held held(Observation[] obs) {
    double[] share = new double[obs.length];
    Arrays.fill(share, 1.0);
    if (config.networkPerServer() == 1) {
      Map<String, Integer> count = new HashMap<>();
      for (Observation o : obs) {
        count.merge(o.network(), 1, Integer::sum);
      }
      for (int i = 0; i < obs.length; i++) {
        share[i] = Math.min(1.0, config.groupCap() / count.get(obs[i].network()));
      }
    }
    return new Held(obs, share);
  }

  /**
   * Adds an observation; a full server first drops the oldest observation that shares a source
   * (a group key) with the new one, the oldest of all when none does. Dropping the oldest of all
   * would let one source flush every honest observation with a flood and own the median (its
   * weight is capped, but "no correction" alone cannot outvote it); this way a flood only
   * replaces its own observations.
   */
  private Observation[] append(Observation[] old, Observation add) {
    if (old.length < config.perServer()) {
      Observation[] out = Arrays.copyOf(old, old.length + 1);
      out[old.length] = add;
      return out;
    }
    int drop = 0;
    search:
    for (int i = 0; i < old.length; i++) {
      for (String g : old[i].groups()) {
        for (String h : add.groups()) {
          if (g.equals(h)) {
            drop = i;
            break search;
          }
        }
      }
    }
    Observation[] out = new Observation[config.perServer()];
    int k = 0;
    for (int i = 0; i < old.length && k < out.length - 1; i++) {
      if (i != drop) {
        out[k++] = old[i];
      }
    }
    out[k++] = add;
    return k == out.length ? out : Arrays.copyOf(out, k);
  }

  /**
   * The factor to multiply the coordinate prediction from {@code client} to the server by: 1 when
   * no report near the client says otherwise.
   *
   * @param serverNow the server's current coordinate (observations made before it moved are ignored)
   */
  public double factor(Coordinate client, String server, Coordinate serverNow, long nowMillis) {
    return factor(client, Map.of(), server, serverNow, nowMillis);
  }

  /**
   * The same, finding the reporters near the client by its calibration RTTs to the landmark beacons
   * where it and a reporter share {@link #MIN_COMMON_LANDMARKS}: two hosts at one site measure the
   * same RTT to every landmark (to within the access links), which a coordinate fitted from a few of
   * them blurs by several ms.
   *
   * @param landmarkRttMs the client's calibration RTTs by landmark id (empty: by coordinates alone)
   */
  public double factor(Coordinate client, Map<String, Double> landmarkRttMs, String server, Coordinate serverNow,
      long nowMillis) {
    return query(client, landmarkRttMs, nowMillis).factor(server, serverNow);
  }

  /**
   * The factors of one client, for many servers (a ranking page): the client's landmark RTTs are
   * prepared once. Null client: every factor is 1.
   */
  public Query query(Coordinate client, Map<String, Double> landmarkRttMs, long nowMillis) {
    return new Query(client, landmarkRttMs.size() >= MIN_COMMON_LANDMARKS ? vector(landmarkRttMs, false) : null,
        nowMillis);
  }

  /** One client's view of the corrections ({@link #query}); not thread-safe (scratch arrays). */
  public final class Query {
    private final Coordinate client;
    private final double[] landmarks;
    private final long nowMillis;
    private double[] diff = new double[0];
    private double[] w = new double[0];
    private double[] v = new double[0];
    private Observation[] near = new Observation[0];

    /** Beyond this separation an observation's kernel weight is below 1e-4 and it is left out. */
    private final double farMs = config.kernelMs() * Math.sqrt(2 * Math.log(1e4));

    private Query(Coordinate client, double[] landmarks, long nowMillis) {
      this.client = client;
      this.landmarks = landmarks;
      this.nowMillis = nowMillis;
    }

    /**
     * The factor for one server, 1 when no report near the client says otherwise.
     *
     * @param serverNow the server's current coordinate (observations made before it moved are ignored)
     */
    public double factor(String server, Coordinate serverNow) {
      Held held = byServer.get(server);
      if (held == null || client == null) {
        return 1.0;
      }
      Observation[] obs = held.obs();
      int n = obs.length;
      if (w.length < n + 1) {
        w = new double[n + 1];
        v = new double[n + 1];
        near = new Observation[n];
      }
      Map<String, Double> groupWeight = new HashMap<>();
      double two = 2 * config.kernelMs() * config.kernelMs();
      double logOwn = Math.log(Math.max(1.0, client.distanceTo(serverNow == null ? obs[0].server() : serverNow)));
      double a = config.transfer();
      int m = 0;
      for (int i = 0; i < n; i++) {
        Observation o = obs[i];
        if (nowMillis - o.atMillis() > config.maxAgeMillis() || moved(o, serverNow)) {
          continue;
        }
        double d = separation(o);
        double k = Math.exp(-d * d / two);
        if (k < 1e-4) {
          continue;
        }
        k *= held.share()[i];
        for (String g : o.groups()) {
          groupWeight.merge(g, k, Double::sum);
        }
        near[m] = o;
        w[m] = k;
        v[m] = o.logRtt() - a * o.logPredicted() - (1 - a) * logOwn;
        m++;
      }
      if (m == 0) {
        return 1.0;
      }
      // cap every source's total weight: scale each observation by its most crowded group's share
      for (int q = 0; q < m; q++) {
        double scale = 1.0;
        for (String g : near[q].groups()) {
          scale = Math.min(scale, config.groupCap() / Math.max(config.groupCap(), groupWeight.get(g)));
        }
        w[q] *= scale;
      }
      w[m] = config.priorWeight();
      v[m] = 0;
      double median = weightedMedian(v, w, m + 1);
      if (median < 0 && promoted.contains(server)) {
        return 1.0;
      }
      double cap = Math.log(config.maxFactor());
      double f = Math.exp(Math.max(-cap, Math.min(cap, median)));
      return bound.limit(f, Math.exp(logOwn), agreeingNetworks(m, median));
    }

    /** Networks among the {@code m} near observations whose residual points the way the median does. */
    private int agreeingNetworks(int m, double median) {
      if (median == 0) {
        return 0;
      }
      Set<String> networks = new HashSet<>();
      for (int q = 0; q < m; q++) {
        if (v[q] * median > 0) {
          networks.add(near[q].network());
        }
      }
      return networks.size();
    }

    /**
     * How far apart the client and the reporter are, ms: the median difference of their RTTs to the
     * landmarks both measured (the RTTs of hosts at one site to a landmark differ by a median 0.1 ms on
     * PlanetLab, of hosts 1-3 ms apart by 2 ms; a maximum would be the triangle bound, but one noisy
     * landmark path spoils it), else their distance in coordinate space with heights (access links)
     * compared rather than added.
     */
    private double separation(Observation o) {
      if (landmarks != null) {
        int len = Math.min(landmarks.length, o.landmarkMs().length);
        if (diff.length < len) {
          diff = new double[len];
        }
        int common = 0;
        int beyond = 0;
        for (int i = 0; i < len; i++) {
          double x = landmarks[i];
          double y = o.landmarkMs()[i];
          if (!Double.isNaN(x) && !Double.isNaN(y)) {
            double dd = Math.abs(x - y);
            diff[common++] = dd;
            if (dd > farMs) {
              beyond++;
            }
          }
        }
        if (common >= MIN_COMMON_LANDMARKS) {
          // most reporters are far: when more than half the differences exceed the kernel's reach, so
          // does their median, and the sort can be skipped (the observation gets no weight either way)
          return beyond >= common / 2 + 1 ? Double.POSITIVE_INFINITY : dev.reed.coordinates.Stats.median(diff, common);
        }
      }
      Coordinate b = o.reporter();
      if (client.dimensions() != b.dimensions()) {
        return Double.POSITIVE_INFINITY;
      }
      return client.euclideanTo(b) + Math.abs(client.height() - b.height());
    }
  }

  /** Forgets observations older than the maximum age; returns how many. */
  public int forget(long nowMillis) {
    int[] removed = {0};
    for (String key : List.copyOf(byServer.keySet())) {
      byServer.computeIfPresent(key, (k, held) -> {
        Observation[] obs = held.obs();
        List<Observation> keep = new ArrayList<>(obs.length);
        for (Observation o : obs) {
          if (nowMillis - o.atMillis() <= config.maxAgeMillis()) {
            keep.add(o);
          }
        }
        removed[0] += obs.length - keep.size();
        Observation[] left = keep.isEmpty() ? null : keep.toArray(new Observation[0]);
        flag(k, left);
        return left == null ? null : held(left);
      });
    }
    return removed[0];
  }

  /** Servers with at least one observation. */
  public int servers() {
    return byServer.size();
  }

  /**
   * Servers flagged as promoted: reported closer than predicted by several networks at different
   * places (class comment); their predictions are not lowered.
   */
  public int promotedServers() {
    return promoted.size();
  }

  /** The servers flagged as promoted, by key (a copy). */
  public Set<String> promotedKeys() {
    return Set.copyOf(promoted);
  }

  /** Whether a server is flagged as promoted. */
  public boolean promoted(String server) {
    return promoted.contains(server);
  }

  /** Observations held. */
  public int observations() {
    return byServer.values().stream().mapToInt(h -> h.obs().length).sum();
  }

  private boolean moved(Observation o, Coordinate serverNow) {
    return serverNow != null && o.server().dimensions() == serverNow.dimensions()
        && o.server().euclideanTo(serverNow) + Math.abs(o.server().height() - serverNow.height()) > config.movedMs();
  }

  /** Landmarks a client and a reporter must share for their RTTs to them to tell how far apart they are. */
  static final int MIN_COMMON_LANDMARKS = 3;

  /** The lower weighted median: the smallest value with at least half the weight at or below it. */
  static double weightedMedian(double[] values, double[] weights, int n) {
    Integer[] idx = new Integer[n];
    double total = 0;
    for (int i = 0; i < n; i++) {
      idx[i] = i;
      total += weights[i];
    }
    Arrays.sort(idx, (a, b) -> Double.compare(values[a], values[b]));
    double acc = 0;
    for (Integer i : idx) {
      acc += weights[i];
      if (acc >= total / 2) {
        return values[i];
      }
    }
    return values[idx[n - 1]];
  }
}
