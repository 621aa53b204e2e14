package dev.reed.eval;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.discovery.Calibration;
import dev.reed.coordinates.reports.ClientReport;
import dev.reed.coordinates.reports.NeighbourhoodCorrections;
import dev.reed.coordinates.reports.ReportConfig;
import dev.reed.coordinates.reports.ReportedServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * An attacker on client reports who has read the code: it wants {@code targets} servers (its own)
 * ranked higher for everyone, and sends fabricated reports the screen believes. Every report
 * impersonates a real place (it copies a positioned server's coordinate and landmark RTTs, which
 * pages serve), carries the coordinator's own predictions for the 39 servers nearest to that place
 * (nothing there disagrees), and lies about the targets only:
 *
 * <ul>
 *   <li>{@code promote:K}: K targets reported closer by just under what one network may move a
 *       prediction ({@link dev.reed.coordinates.reports.CorrectionBound}, 5 ms + 10 %: all its one
 *       AS can get, and not deep enough for the promoted flag), from 200 places, a /24 per report;
 *   <li>{@code demote:K}: one target, its K nearest competitors reported farther by as much, from
 *       200 places, one AS;
 *   <li>{@code sybil:T:N:R}: T targets reported as close as the triangle bounds allow (the lowest
 *       RTT that is not below them) from N independent networks (ASes) at each of R places.
 * </ul>
 *
 * <p>What it achieves is measured on the scored clients ({@link #measure}): how many ranks each
 * target gains in their predicted order (coordinates times the served correction) for clients it is
 * not near (not among their N_close nearest by measured RTT), against the corrections the honest
 * reports alone teach. Pages are ranked by the uncorrected prediction and the factor reorders
 * within what a client fetched, so the gain in the full order is an upper bound on what its probes see.
 *
 * @param kind what the attacker does
 * @param targets servers promoted (K or T)
 * @param competitors servers demoted ({@code demote:K}), 0 otherwise
 * @param networks independent networks (ASes) the attacker reports from
 * @param places places each network reports from
 */
record ReportAttack(Kind kind, int targets, int competitors, int networks, int places) {

  /** What the attacker does. */
  enum Kind { NONE, PROMOTE, DEMOTE, SYBIL }

  /** Places the one-AS attacks (promote, demote) report from. */
  static final int PLACES = 200;
  /** Servers a fabricated report lists beside its lies, as a discovery's 40 replies. */
  static final int LISTED = SeedRun.REPORTED_REPLIES - 1;

  ReportAttack {
    if (kind == null || targets < 0 || competitors < 0 || networks < 0 || places < 0) {
      throw new IllegalArgumentException("bad report attack: " + kind + " " + targets + " " + competitors);
    }
  }

  /** No attack. */
  static ReportAttack none() {
    return new ReportAttack(Kind.NONE, 0, 0, 0, 0);
  }

  boolean on() {
    return kind != Kind.NONE;
  }

  /**
   * {@code none}, {@code promote:K}, {@code demote:K} or {@code sybil:T:N:R}.
   *
   * @throws IllegalArgumentException naming the expected forms
   */
  static ReportAttack parse(String spec) {
    String[] p = spec.strip().toLowerCase(Locale.ROOT).split(":");
    try {
      return switch (p[0]) {
        case "none" -> p.length == 1 ? none() : bad(spec);
        case "promote" -> p.length == 2 ? new ReportAttack(Kind.PROMOTE, positive(p[1]), 0, 1, PLACES) : bad(spec);
        case "demote" -> p.length == 2 ? new ReportAttack(Kind.DEMOTE, 1, positive(p[1]), 1, PLACES) : bad(spec);
        case "sybil" -> p.length == 4 ? new ReportAttack(Kind.SYBIL, positive(p[1]), 0, positive(p[2]), positive(p[3]))
            : bad(spec);
        default -> bad(spec);
      };
    } catch (NumberFormatException e) {
      return bad(spec);
    }
  }

  private static int positive(String s) {
    int n = Integer.parseInt(s);
    if (n < 1) {
      throw new NumberFormatException(s);
    }
    return n;
  }

  private static ReportAttack bad(String spec) {
    throw new IllegalArgumentException("--report-attack must be none, promote:K, demote:K or sybil:T:N:R (K, T, N, R "
        + ">= 1), got " + spec);
  }

  /**
   * What the attack did in one seed: reports sent and believed, each target's rank gain for every
   * scored client it is not near, targets flagged as promoted.
   */
  record Outcome(int reports, int believed, Gains gains, int targetsFlagged) {
    static final Outcome NONE = new Outcome(0, 0, new Gains(new double[0], 0), 0);
  }

  /**
   * The targets' rank gains, one per (scored client, target it is not near), and how many of those
   * pairs the attack brought into the client's first page ({@link #FIRST_PAGE} servers) from beyond it.
   */
  record Gains(double[] ranks, int enteredFirstPage) {}

  /** A first page: the servers a discovery's 40 replies come from. */
  static final int FIRST_PAGE = 40;

  /** The attacker's servers (and, for demotion, its competitors) for a seed. */
  record Plan(int[] promoted, int[] demoted) {}

  /** Chooses the targets among the positioned servers, from the seed. */
  Plan plan(int[] servers, Coordinate[] coords, long seed) {
    SplittableRandom dice = new SplittableRandom(seed * 31_337L + 5);
    int[] shuffled = servers.clone();
    for (int i = shuffled.length - 1; i > 0; i--) {
      int j = dice.nextInt(i + 1);
      int t = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = t;
    }
    int[] promoted = Arrays.copyOf(shuffled, Math.min(targets, shuffled.length));
    if (kind != Kind.DEMOTE || promoted.length == 0) {
      return new Plan(promoted, new int[0]);
    }
    Coordinate own = coords[promoted[0]];
    int[] demoted = Arrays.stream(servers).filter(v -> v != promoted[0]).boxed()
        .sorted(Comparator.comparingDouble((Integer v) -> own.distanceTo(coords[v])))
        .limit(competitors).mapToInt(Integer::intValue).toArray();
    return new Plan(promoted, demoted);
  }

  /**
   * The attacker's reports.
   *
   * @param known what the coordinator serves of each server (coordinate, landmark RTTs), by key
   */
  List<ClientReport> reports(Plan plan, int[] servers, Coordinate[] coords, List<Map<String, Double>> landmarkMs,
      Map<String, ReportedServer> known, ReportConfig config, long seed) {
    SplittableRandom dice = new SplittableRandom(seed * 104_729L + 3);
    List<ClientReport> out = new ArrayList<>();
    Set<Integer> lied = new java.util.HashSet<>();
    for (int v : plan.promoted()) lied.add(v); // the attacker's own server is left out of a demotion's reports too
    for (int v : plan.demoted()) lied.add(v);
    for (int place = 0; place < places; place++) {
      int site = servers[dice.nextInt(servers.length)];
      Coordinate at = coords[site];
      Map<String, Double> rtt = new HashMap<>();
      Arrays.stream(servers).filter(v -> v != site && !lied.contains(v)).boxed()
          .sorted(Comparator.comparingDouble((Integer v) -> at.distanceTo(coords[v]))).limit(LISTED)
          .forEach(v -> rtt.put(Integer.toString(v), Math.max(0.1, at.distanceTo(coords[v]))));
      for (int v : kind == Kind.DEMOTE ? new int[0] : plan.promoted()) {
        if (v != site) rtt.put(Integer.toString(v), lie(at, landmarkMs.get(site), known.get(Integer.toString(v)), -1, config));
      }
      for (int v : plan.demoted()) {
        if (v != site) rtt.put(Integer.toString(v), lie(at, landmarkMs.get(site), known.get(Integer.toString(v)), 1, config));
      }
      for (int n = 0; n < networks; n++) {
        // a /24 of its own per report, all in the attacker's AS n
        List<String> groups = List.of("p:attack-" + n + "-" + place, "a:attack-" + n);
        out.add(new ClientReport(at, null, landmarkMs.get(site), rtt, Set.of(), groups, 0));
      }
    }
    return out;
  }

  /** The RTT the attacker reports to a server from a place: the prediction moved by its chosen depth. */
  private double lie(Coordinate at, Map<String, Double> siteLandmarks, ReportedServer server, int sign,
      ReportConfig config) {
    double predicted = Math.max(0.1, at.distanceTo(server.coordinate()));
    if (kind != Kind.SYBIL) {
      // just under what one network may move a prediction: the most a correction gives it, and not
      // deep enough to count towards the promoted flag
      return Math.max(0.1, predicted + sign * 0.99 * config.correctionBound().maxShiftMs(predicted, 1));
    }
    // as close as the triangle bound allows: the boundRank-th largest landmark difference, less the slack
    double[] diff = new double[siteLandmarks.size()];
    int n = 0;
    for (Map.Entry<String, Double> l : siteLandmarks.entrySet()) {
      Double b = server.landmarkRttMs().get(l.getKey());
      if (b != null) diff[n++] = Math.abs(l.getValue() - b);
    }
    Arrays.sort(diff, 0, n);
    double lower = n >= config.boundRank() ? diff[n - config.boundRank()] : 0;
    double floor = lower - config.triangleSlackMs() - config.triangleSlackFraction() * lower;
    return Math.min(predicted, Math.max(0.1, floor + 0.05));
  }

  /**
   * How far the targets rose for the scored clients they are not near: rank in the corrected
   * predicted order with the honest reports' corrections, less the rank with the attacker's too.
   *
   * @param clients the scored clients' calibrations, by node
   * @param rtt the measured matrix (which servers a client is near)
   */
  static Gains rankGains(Plan plan, Map<Integer, Calibration> clients, int[] servers, Coordinate[] coords,
      NeighbourhoodCorrections honest, NeighbourhoodCorrections attacked, int nClose, RttMatrix rtt) {
    List<Double> gains = new ArrayList<>();
    int entered = 0;
    for (Map.Entry<Integer, Calibration> e : clients.entrySet()) {
      int c = e.getKey();
      Calibration cal = e.getValue();
      if (cal == null || cal.position() == null) continue;
      Coordinate me = cal.position();
      NeighbourhoodCorrections.Query before = honest.query(me, cal.landmarkRttMs(), 0);
      NeighbourhoodCorrections.Query after = attacked.query(me, cal.landmarkRttMs(), 0);
      int m = 0;
      double[] plain = new double[servers.length];
      double[] measured = new double[servers.length];
      int[] node = new int[servers.length];
      for (int v : servers) {
        if (v == c) continue;
        plain[m] = me.distanceTo(coords[v]);
        measured[m] = rtt.rtt(c, v);
        node[m++] = v;
      }
      double[] sortedRtt = Arrays.stream(measured, 0, m).filter(Double::isFinite).sorted().toArray();
      double kth = sortedRtt.length == 0 ? Double.NaN : sortedRtt[Math.min(nClose, sortedRtt.length) - 1];
      double[] b = new double[m];
      double[] a = new double[m];
      for (int j = 0; j < m; j++) {
        String key = Integer.toString(node[j]);
        b[j] = plain[j] * before.factor(key, coords[node[j]]);
        a[j] = plain[j] * after.factor(key, coords[node[j]]);
      }
      for (int t : plan.promoted()) {
        int j = indexOf(node, m, t);
        if (j < 0 || !(measured[j] > kth)) continue; // the target is one of this client's nearest
        int was = rank(b, m, j);
        int is = rank(a, m, j);
        gains.add((double) (was - is));
        entered += was > FIRST_PAGE && is <= FIRST_PAGE ? 1 : 0;
      }
    }
    return new Gains(gains.stream().mapToDouble(Double::doubleValue).toArray(), entered);
  }

  private static int indexOf(int[] a, int n, int v) {
    for (int i = 0; i < n; i++) if (a[i] == v) return i;
    return -1;
  }

  /** 1-based rank of entry j by ascending value (ties by index). */
  private static int rank(double[] ms, int n, int j) {
    int r = 1;
    for (int i = 0; i < n; i++) {
      if (ms[i] < ms[j] || (ms[i] == ms[j] && i < j)) r++;
    }
    return r;
  }

  /**
   * The summary keys of one seed's reports: honest reports refused, servers flagged as promoted
   * (share of the servers, targets excluded: the false flags), and with an attack its reports
   * believed, targets flagged and the targets' rank gains (median, p90, max; share of clients with
   * a gain above 3).
   */
  static Map<String, Double> summary(SeedRun.Reports r, int servers) {
    Map<String, Double> out = new java.util.LinkedHashMap<>();
    Outcome a = r.attack();
    out.put("reports.honestRefused", (double) r.honestRefused());
    out.put("reports.falseFlagShare", servers == 0 ? Double.NaN : (double) r.promotedServers() / servers);
    if (a.reports() > 0) {
      double[] g = a.gains().ranks().clone();
      Arrays.sort(g);
      out.put("reports.attack.believed", (double) a.believed() / a.reports());
      out.put("reports.attack.targetsFlagged", (double) a.targetsFlagged());
      out.put("reports.attack.rankGainMedian", g.length == 0 ? Double.NaN : dev.reed.coordinates.Stats.quantile(g, 0.5));
      out.put("reports.attack.rankGainP90", g.length == 0 ? Double.NaN : dev.reed.coordinates.Stats.quantile(g, 0.9));
      out.put("reports.attack.rankGainMax", g.length == 0 ? Double.NaN : g[g.length - 1]);
      out.put("reports.attack.gainAbove3", g.length == 0 ? Double.NaN
          : Arrays.stream(g).filter(x -> x > 3).count() / (double) g.length);
      out.put("reports.attack.enteredFirstPage", g.length == 0 ? Double.NaN : a.gains().enteredFirstPage() / (double) g.length);
    }
    return out;
  }

  /** One progress line's worth of {@link #summary}. */
  static String describe(SeedRun.Reports r, int servers) {
    Map<String, Double> v = summary(r, servers);
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%d honest refused, %d servers flagged as promoted",
        r.honestRefused(), r.promotedServers()));
    if (r.attack().reports() > 0) {
      b.append(String.format(Locale.ROOT, "; attack: %d reports, %.0f %% believed, %d targets flagged, rank gain for "
          + "clients not near a target median %.1f p90 %.1f max %.0f, above 3 for %.1f %%, into the first page for "
          + "%.2f %%", r.attack().reports(),
          100 * v.get("reports.attack.believed"), r.attack().targetsFlagged(), v.get("reports.attack.rankGainMedian"),
          v.get("reports.attack.rankGainP90"), v.get("reports.attack.rankGainMax"),
          100 * v.get("reports.attack.gainAbove3"), 100 * v.get("reports.attack.enteredFirstPage")));
    }
    return b.toString();
  }
}
