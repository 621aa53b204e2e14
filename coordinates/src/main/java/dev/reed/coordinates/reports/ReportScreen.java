package dev.reed.coordinates.reports;

import dev.reed.coordinates.geo.LightBound;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Which RTTs of a report are possible given what the landmarks measured: the client's RTTs to the
 * landmark beacons and the landmarks' RTTs to each server bound the client-server RTT by the
 * triangle inequality ({@code |a_l - b_l| <= d <= a_l + b_l}, IDMaps), and where both ends are
 * located the speed of light in fibre bounds it from below ({@link LightBound}). A report "5 ms to
 * every server" or random RTTs mostly falls outside; when more than
 * {@link ReportConfig#maxRejectedFraction()} of a report does, none of it is believed.
 */
public final class ReportScreen {

  /** Why an RTT was not kept. */
  public enum Reason {
    /** The server is not one the coordinator knows. */
    UNKNOWN_SERVER,
    /** Below the triangle-inequality lower bound or the light floor. */
    BELOW_BOUND,
    /** Far above the triangle-inequality upper bound. */
    ABOVE_BOUND,
    /** Part of a report whose other RTTs were impossible too often. */
    REPORT_REJECTED
  }

  /**
   * The screened report.
   *
   * @param kept the RTTs believed, by server key, with what the coordinator knew of the server
   * @param dropped RTTs not kept, by reason
   */
  public record Screened(ClientReport report, Map<String, Kept> kept, Map<Reason, Integer> dropped) {
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

  /**
   * Screens a report.
   *
   * @param servers what the coordinator knows of a server by key, null when it knows none
   */
  public Screened screen(ClientReport report, Function<String, ReportedServer> servers) {
    Map<Reason, Integer> dropped = new EnumMap<>(Reason.class);
    Map<String, Kept> kept = new HashMap<>();
    int impossible = 0;
    for (Map.Entry<String, Double> e : report.serverRttMs().entrySet()) {
      ReportedServer s = servers.apply(e.getKey());
      if (s == null) {
        dropped.merge(Reason.UNKNOWN_SERVER, 1, Integer::sum);
        continue;
      }
      Reason r = check(report, s, e.getValue());
      if (r == null) {
        kept.put(e.getKey(), new Kept(s, e.getValue()));
      } else {
        dropped.merge(r, 1, Integer::sum);
        impossible++;
      }
    }
    int judged = kept.size() + impossible;
    if (judged > 0 && impossible > config.maxRejectedFraction() * judged) {
      dropped.merge(Reason.REPORT_REJECTED, kept.size(), Integer::sum);
      kept.clear();
    }
    return new Screened(report, kept, dropped);
  }

  /** Null when the RTT is possible, else why not. */
  private Reason check(ClientReport report, ReportedServer s, double rttMs) {
    double lower = 0;
    double upper = Double.POSITIVE_INFINITY;
    for (Map.Entry<String, Double> l : report.landmarkRttMs().entrySet()) {
      Double b = s.landmarkRttMs().get(l.getKey());
      if (b != null && Double.isFinite(b) && Double.isFinite(l.getValue())) {
        lower = Math.max(lower, Math.abs(l.getValue() - b));
        upper = Math.min(upper, l.getValue() + b);
      }
    }
    if (rttMs + config.triangleSlackMs() + config.triangleSlackFraction() * lower < lower
        || light.contradicts(report.location(), s.place(), rttMs)) {
      return Reason.BELOW_BOUND;
    }
    if (rttMs > config.upperSlackFactor() * upper + config.triangleSlackMs()) {
      return Reason.ABOVE_BOUND;
    }
    return null;
  }
}
