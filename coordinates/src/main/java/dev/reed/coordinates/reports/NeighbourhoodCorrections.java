package dev.reed.coordinates.reports;

import dev.reed.coordinates.Coordinate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * <p>Defences (issue 16): one source (a group key: prefix, AS or API key) weighs at most
 * {@link ReportConfig#groupCap()} in a server's median however many reports it sends, and keeps at
 * most {@link #PER_SOURCE} of its observations, so a flood from one source counts as one reporter
 * and evicts nobody else's; a median needs a majority of the nearby weight to move;
 * and no correction exceeds {@link ReportConfig#maxFactor()} either way. Reports the landmarks
 * contradict never get here ({@link ReportScreen}). Observations age out after
 * {@link ReportConfig#maxAgeMillis()}, and are forgotten when their server's coordinate moves
 * ({@link ReportConfig#movedMs()}): a server that moved is learned again.
 *
 * <p>Thread-safe: reports are added from the ingest thread while pages are served. Work per
 * (client, server): O(observations of the server), at most {@link ReportConfig#perServer()}.
 */
public final class NeighbourhoodCorrections {

  /** One reported RTT: where the reporter was, the RTT and its coordinate prediction (ln ms), who sent it, when, and where the server was. */
  private record Observation(Coordinate reporter, Map<String, Double> landmarkRttMs, double logRtt, double logPredicted,
      String[] groups, long atMillis, Coordinate server) {}

  /** Observations of one server kept per source (a client reporting each discovery keeps a few). */
  static final int PER_SOURCE = 4;

  private final ReportConfig config;
  private final Map<String, Observation[]> byServer = new ConcurrentHashMap<>();

  public NeighbourhoodCorrections(ReportConfig config) {
    this.config = config;
  }

  /** Learns a screened report's kept RTTs; returns how many observations it added. */
  public int add(ReportScreen.Screened screened) {
    ClientReport r = screened.report();
    String[] groups = r.groups().toArray(new String[0]);
    int added = 0;
    for (Map.Entry<String, ReportScreen.Kept> e : screened.kept().entrySet()) {
      Coordinate server = e.getValue().server().coordinate();
      double predicted = Math.max(1.0, r.position().distanceTo(server));
      double rtt = Math.max(0.1, e.getValue().rttMs());
      Observation o = new Observation(r.position(), r.landmarkRttMs(), Math.log(rtt), Math.log(predicted), groups,
          r.atMillis(), server);
      byServer.merge(e.getKey(), new Observation[] {o}, this::append);
      added++;
    }
    return added;
  }

  /**
   * The server's observations with one more: the newest {@link ReportConfig#perServer()}, of which
   * at most {@link #PER_SOURCE} share a source with any other, so a flood from one source replaces
   * its own observations instead of evicting everyone else's.
   */
  private Observation[] append(Observation[] old, Observation[] one) {
    Observation o = one[0];
    List<Observation> out = new ArrayList<>(Arrays.asList(old));
    int shared = 0;
    int oldestShared = -1;
    for (int i = 0; i < out.size(); i++) {
      if (sharesSource(out.get(i), o)) {
        shared++;
        oldestShared = oldestShared < 0 ? i : oldestShared;
      }
    }
    if (shared >= PER_SOURCE) {
      out.remove(oldestShared);
    } else if (out.size() >= config.perServer()) {
      out.remove(0);
    }
    out.add(o);
    return out.toArray(new Observation[0]);
  }

  private static boolean sharesSource(Observation a, Observation b) {
    for (String g : a.groups()) {
      for (String h : b.groups()) {
        if (g.equals(h)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The factor to multiply the coordinate distance from {@code client} to the server, floored at
   * 1 ms, by: 1 when no report near the client says otherwise.
   *
   * @param landmarkRttMs the client's calibration RTTs by landmark id; with fewer than
   *     {@link #MIN_COMMON_LANDMARKS} in common with a reporter, the two are compared by coordinates
   * @param serverNow the server's current coordinate (observations made before it moved are ignored)
   */
  public double factor(Coordinate client, Map<String, Double> landmarkRttMs, String server, Coordinate serverNow,
      long nowMillis) {
    Observation[] obs = byServer.get(server);
    if (obs == null || client == null) {
      return 1.0;
    }
    double[] w = new double[obs.length + 1];
    double[] v = new double[obs.length + 1];
    String[][] groups = new String[obs.length][];
    Map<String, Double> groupWeight = new HashMap<>();
    double two = 2 * config.kernelMs() * config.kernelMs();
    double logOwn = Math.log(Math.max(1.0, client.distanceTo(serverNow == null ? obs[0].server() : serverNow)));
    double a = config.transfer();
    int m = 0;
    for (Observation o : obs) {
      if (nowMillis - o.atMillis() > config.maxAgeMillis() || moved(o, serverNow)) {
        continue;
      }
      double d = separation(client, landmarkRttMs, o);
      double k = Math.exp(-d * d / two);
      if (k < 1e-4) {
        continue;
      }
      for (String g : o.groups()) {
        groupWeight.merge(g, k, Double::sum);
      }
      w[m] = k;
      // the reporter's RTT, carried over to this client (transfer = 0) or as a ratio (1), against the client's prediction
      v[m] = o.logRtt() - a * o.logPredicted() - (1 - a) * logOwn;
      groups[m] = o.groups();
      m++;
    }
    if (m == 0) {
      return 1.0;
    }
    // cap every source's total weight: scale each observation by its most crowded group's share
    for (int i = 0; i < m; i++) {
      double scale = 1.0;
      for (String g : groups[i]) {
        scale = Math.min(scale, config.groupCap() / Math.max(config.groupCap(), groupWeight.get(g)));
      }
      w[i] *= scale;
    }
    w[m] = config.priorWeight();
    v[m] = 0;
    double median = weightedMedian(v, w, m + 1);
    double cap = Math.log(config.maxFactor());
    return Math.exp(Math.max(-cap, Math.min(cap, median)));
  }

  /** Forgets observations older than the maximum age; returns how many. */
  public int forget(long nowMillis) {
    int[] removed = {0};
    for (String key : List.copyOf(byServer.keySet())) {
      byServer.computeIfPresent(key, (k, obs) -> {
        List<Observation> keep = new ArrayList<>(obs.length);
        for (Observation o : obs) {
          if (nowMillis - o.atMillis() <= config.maxAgeMillis()) {
            keep.add(o);
          }
        }
        removed[0] += obs.length - keep.size();
        return keep.isEmpty() ? null : keep.toArray(new Observation[0]);
      });
    }
    return removed[0];
  }

  /** Servers with at least one observation. */
  public int servers() {
    return byServer.size();
  }

  /** Observations held. */
  public int observations() {
    return byServer.values().stream().mapToInt(a -> a.length).sum();
  }

  private boolean moved(Observation o, Coordinate serverNow) {
    return serverNow != null && o.server().dimensions() == serverNow.dimensions()
        && o.server().euclideanTo(serverNow) + Math.abs(o.server().height() - serverNow.height()) > config.movedMs();
  }

  /** Landmarks a client and a reporter must share for their RTTs to them to tell how far apart they are. */
  static final int MIN_COMMON_LANDMARKS = 3;

  /**
   * How far apart the client and the reporter are, ms: the median difference of their RTTs to the
   * landmarks both measured (the RTTs of hosts at one site to a landmark differ by a median 0.1 ms on
   * PlanetLab, of hosts 1-3 ms apart by 2 ms; a maximum would be the triangle bound, but one noisy
   * landmark path spoils it), else their distance in coordinate space with heights (access links)
   * compared rather than added.
   */
  private static double separation(Coordinate client, Map<String, Double> clientLandmarkMs, Observation o) {
    if (clientLandmarkMs.size() >= MIN_COMMON_LANDMARKS) {
      double[] diff = new double[clientLandmarkMs.size()];
      int common = 0;
      for (Map.Entry<String, Double> e : clientLandmarkMs.entrySet()) {
        Double b = o.landmarkRttMs().get(e.getKey());
        if (b != null) {
          diff[common++] = Math.abs(e.getValue() - b);
        }
      }
      if (common >= MIN_COMMON_LANDMARKS) {
        return dev.reed.coordinates.Stats.median(diff, common);
      }
    }
    Coordinate b = o.reporter();
    if (client.dimensions() != b.dimensions()) {
      return Double.POSITIVE_INFINITY;
    }
    return client.euclideanTo(b) + Math.abs(client.height() - b.height());
  }

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
