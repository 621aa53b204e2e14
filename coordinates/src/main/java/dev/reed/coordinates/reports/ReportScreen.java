package dev.reed.coordinates.reports;

import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.geo.LightBound;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Whether a report is believed, given what the landmarks measured: the client's RTTs to the landmark
 * beacons and the landmarks' RTTs to each server bound the client-server RTT by the triangle
 * inequality ({@code |a_l - b_l| <= d <= a_l + b_l}, IDMaps), and where both ends are located the
 * speed of light in fibre bounds it from below ({@link LightBound}). A report whose RTTs fall outside
 * more often than {@link ReportConfig#maxRejectedFraction()} is dropped whole: "5 ms to every
 * server" fails the lower bound on about two thirds of its RTTs, random RTTs fail one bound or the
 * other, honest reports a median 6 %. The RTTs of a believed report are all kept, the impossible ones
 * too: on PlanetLab they are mostly a client's sub-millisecond RTTs to servers at its own site, whose
 * landmark paths differ by several ms, and exactly what the landmarks cannot see (dropping them
 * costs 0.04 of P@10; docs/research/client-reports.md).
 *
 * <p>A report's own landmark RTTs and location bound it, so a report without them would have no
 * bounds at all: one with fewer than {@link ReportConfig#minLandmarks()} landmark RTTs is believed
 * only when the coordinator's predictions from its coordinate agree with its RTTs ({@link
 * #locatedByServers}). Every report is also judged against what the coordinator knows: an RTT
 * farther from the coordinator's prediction than the served uncertainty allows ({@link
 * ReportConfig#disagreeToleranceMs}) counts against the report, and a report with more than
 * {@link ReportConfig#maxDisagreeingFraction()} of its RTTs out of bounds or disagreeing is
 * dropped whole. An attacker choosing landmark RTTs to bracket a lie must then also stay near the
 * prediction on most of its report, and {@link CorrectionBound} limits what the rest can move.
 */
public final class ReportScreen {

  /** Why an RTT was not kept. */
  public enum Reason {
    /** The server is not one the coordinator knows. */
    UNKNOWN_SERVER,
    /** Part of a report whose RTTs were impossible too often (below or far above the bounds). */
    REPORT_REJECTED,
    /**
     * Part of a report with too few landmark RTTs to bound it whose RTTs the coordinator's
     * predictions from its coordinate do not confirm.
     */
    NO_LANDMARKS,
    /** Part of a report whose RTTs were out of bounds or disagreed with the coordinator's predictions too often. */
    CONTRADICTS_PREDICTIONS
  }

  /** Servers a report without landmark RTTs must carry to be located by them: fewer agree by chance. */
  public static final int LOCATING_SERVERS = 5;

  /**
   * The screened report.
   *
   * @param kept the RTTs believed, by server key, with what the coordinator knew of the server
   * @param dropped RTTs not kept, by reason
   * @param belowBound RTTs below the lower bounds (kept or not)
   * @param aboveBound RTTs far above the upper bound (kept or not)
   * @param disagreeing RTTs within the bounds that disagree with the coordinator's prediction (kept or not)
   */
  public record Screened(ClientReport report, Map<String, Kept> kept, Map<Reason, Integer> dropped, int belowBound,
      int aboveBound, int disagreeing) {
    public Screened {
      kept = Map.copyOf(kept);
      dropped = Map.copyOf(dropped);
    }

    /** RTTs dropped for any reason. */
    public int droppedCount() {
      return dropped.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  /** An RTT believed: the server as the coordinator knew it, and the RTT (ms). */
  public record Kept(ReportedServer server, double rttMs) {}

  private final ReportConfig config;
  private final LightBound light = LightBound.defaults();

  public ReportScreen(ReportConfig config) {
    this.config = config;
  }

  /** Screens a report against the configured uncertainty ({@link ReportConfig#servedError()}). */
  public Screened screen(ClientReport report, Function<String, ReportedServer> servers) {
    return screen(report, servers, Double.NaN);
  }

  /**
   * Screens a report.
   *
   * @param servers what the coordinator knows of a server by key, null when it knows none
   * @param servedError the relative uncertainty the coordinator serves with its predictions, NaN
   *     when it has none ({@link ReportConfig#servedError()})
   */
  public Screened screen(ClientReport report, Function<String, ReportedServer> servers, double servedError) {
    Map<Reason, Integer> dropped = new EnumMap<>(Reason.class);
    Map<String, Kept> kept = new HashMap<>();
    int below = 0;
    int above = 0;
    int disagreeing = 0;
    for (Map.Entry<String, Double> e : report.serverRttMs().entrySet()) {
      ReportedServer s = servers.apply(e.getKey());
      if (s == null) {
        dropped.merge(Reason.UNKNOWN_SERVER, 1, Integer::sum);
        continue;
      }
      Bound b = check(report, s, e.getValue());
      below += b == Bound.BELOW ? 1 : 0;
      above += b == Bound.ABOVE ? 1 : 0;
      disagreeing += b == Bound.WITHIN && disagrees(report.position(), s.coordinate(), e.getValue(), servedError) ? 1 : 0;
      kept.put(e.getKey(), new Kept(s, e.getValue()));
    }
    Reason refused = null;
    if (kept.isEmpty()) {
      // nothing to refuse
    } else if (landmarks(report) < config.minLandmarks()
        && !locatedByServers(report.position(), report.serverRttMs(), k -> coordinateOf(servers, k), servedError)) {
      refused = Reason.NO_LANDMARKS;
    } else if (below + above > config.maxRejectedFraction() * kept.size()) {
      refused = Reason.REPORT_REJECTED;
    } else if (below + above + disagreeing > config.maxDisagreeingFraction() * kept.size()) {
      refused = Reason.CONTRADICTS_PREDICTIONS;
    }
    if (refused != null) {
      dropped.merge(refused, kept.size(), Integer::sum);
      kept.clear();
    }
    return new Screened(report, kept, dropped, below, above, disagreeing);
  }

  /** The report's usable landmark RTTs. */
  private static int landmarks(ClientReport report) {
    int n = 0;
    for (Double ms : report.landmarkRttMs().values()) {
      n += ms != null && Double.isFinite(ms) && ms > 0 ? 1 : 0;
    }
    return n;
  }

  private static Coordinate coordinateOf(Function<String, ReportedServer> servers, String key) {
    ReportedServer s = servers.apply(key);
    return s == null ? null : s.coordinate();
  }

  /**
   * Whether a report's own servers locate it: it carries at least {@link #LOCATING_SERVERS} known
   * servers, and the coordinator's predictions from the report's coordinate agree with all but
   * {@link ReportConfig#maxRejectedFraction()} of their RTTs. "5 ms to every server" from one
   * coordinate fails wherever the servers are more than a few ms apart; a report that passes says
   * little the coordinates did not, and {@link CorrectionBound} limits the rest.
   *
   * @param serverCoordinate a server's coordinate by key, null when unknown
   */
  public boolean locatedByServers(Coordinate position, Map<String, Double> rttMs,
      Function<String, Coordinate> serverCoordinate, double servedError) {
    int known = 0;
    int disagreeing = 0;
    for (Map.Entry<String, Double> e : rttMs.entrySet()) {
      Coordinate c = serverCoordinate.apply(e.getKey());
      if (c == null || c.dimensions() != position.dimensions()) {
        continue;
      }
      known++;
      disagreeing += disagrees(position, c, e.getValue(), servedError) ? 1 : 0;
    }
    return known >= LOCATING_SERVERS && disagreeing <= config.maxRejectedFraction() * known;
  }

  /** Whether an RTT is farther from the coordinate prediction than the served uncertainty allows. */
  private boolean disagrees(Coordinate client, Coordinate server,
      double rttMs, double servedError) {
    if (client.dimensions() != server.dimensions()) {
      return true;
    }
    double predicted = client.distanceTo(server);
    return Math.abs(rttMs - predicted) > config.disagreeToleranceMs(predicted, servedError);
  }

  /** Where an RTT falls against its bounds. */
  private enum Bound { WITHIN, BELOW, ABOVE }

  /**
   * Whether the RTT is possible. The lower bound is the {@link
   * ReportConfig#boundRank()}-th largest {@code |a_l - b_l|}, not the largest: on PlanetLab one or two
   * of a host's landmark paths are often off by 10-30 ms (the largest bound wrongly rejects 29 % of
   * honest RTTs to a client's 50 nearest servers, the third largest 6 %, while a "5 ms to all" liar
   * still fails it on 66 %: docs/research/client-reports.md).
   */
  private Bound check(ClientReport report, ReportedServer s, double rttMs) {
    double[] diff = new double[report.landmarkRttMs().size()];
    int n = 0;
    double upper = Double.POSITIVE_INFINITY;
    for (Map.Entry<String, Double> l : report.landmarkRttMs().entrySet()) {
      Double b = s.landmarkRttMs().get(l.getKey());
      if (b != null && Double.isFinite(b) && Double.isFinite(l.getValue())) {
        diff[n++] = Math.abs(l.getValue() - b);
        upper = Math.min(upper, l.getValue() + b);
      }
    }
    java.util.Arrays.sort(diff, 0, n);
    double lower = n >= config.boundRank() ? diff[n - config.boundRank()] : 0;
    if (rttMs + config.triangleSlackMs() + config.triangleSlackFraction() * lower < lower
        || light.contradicts(report.location(), s.place(), rttMs)) {
      return Bound.BELOW;
    }
    if (rttMs > config.upperSlackFactor() * upper + config.triangleSlackMs()) {
      return Bound.ABOVE;
    }
    return Bound.WITHIN;
  }
}
