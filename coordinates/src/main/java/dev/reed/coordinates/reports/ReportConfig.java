package dev.reed.coordinates.reports;

import dev.reed.coordinates.ModelFile;
import java.nio.file.Path;
import java.util.Map;

/**
 * Every parameter of learning from client reports, with the defaults measured on planetlab490
 * (docs/research/client-reports.md).
 *
 * @param kernelMs width of the Gaussian kernel over how far apart the asking client and a reporter
 *     are (default 1 ms; measured as {@link NeighbourhoodCorrections} says): a reporter at the
 *     client's site speaks for it, one a few ms away much less (two PlanetLab hosts 5 ms apart differ
 *     by a median 4 ms in their RTT to a third)
 * @param priorWeight weight of "no correction" in the weighted median (default 0.5): with fewer
 *     reporter weight than this near the client, nothing moves
 * @param groupCap the most weight one source (prefix, AS or API key) may have in one server's median
 *     (default 1: one nearby reporter's worth)
 * @param maxFactor the largest factor a correction may apply, either way (default 10: a server at
 *     the client's site is 0.2 ms away where the coordinates say 5)
 * @param perServer observations kept per server (default 64; a full server drops the oldest of the
 *     newcomer's own source, else the oldest)
 * @param maxAgeMillis observations older than this are forgotten (default 24 h)
 * @param movedMs an observation is forgotten when its server's coordinate has moved more than this
 *     since (default 10 ms): a server that moved or changed network is learned again
 * @param triangleSlackMs an RTT below the landmarks' lower bound (the {@code boundRank}-th largest
 *     {@code |a_l - b_l|}) by more than {@code triangleSlackMs + triangleSlackFraction * bound} is
 *     impossible (default 5 ms)
 * @param triangleSlackFraction see {@code triangleSlackMs} (default 0.2: Internet paths violate the
 *     triangle inequality by that much at times)
 * @param upperSlackFactor an RTT above {@code factor * min(a_l + b_l) + triangleSlackMs} is dropped
 *     too (default 3)
 * @param maxRejectedFraction a report with more than this fraction of its RTTs impossible is dropped
 *     whole (default 0.4: honest PlanetLab reports have a median 6 %, "5 ms to all" about 66 %)
 * @param transfer how a reporter's RTT carries over to a client: 1 carries its ratio to the
 *     reporter's coordinate prediction over to the client's prediction, 0 the RTT itself (default: a
 *     reporter at the client's site measured what the client would); in between, the geometric mix
 * @param boundRank the triangle lower bound is the k-th largest landmark difference (default 3:
 *     robust to two noisy landmark paths; 1 is IDMaps' bound)
 * @param minLandmarks landmark RTTs a report needs for its bounds (default 3): with fewer it has
 *     none (lower bound 0, upper infinity), and is believed only when the coordinator's predictions
 *     from its coordinate agree with its RTTs ({@link ReportScreen})
 * @param servedError the relative uncertainty of a served prediction when the coordinator knows
 *     none (default 0.15; the coordinator serves its cross-validated median error)
 * @param disagreeUncertainties an RTT farther from the coordinator's prediction than this many
 *     served uncertainties plus {@code triangleSlackMs} disagrees with what the coordinator knows
 *     (default 3)
 * @param maxDisagreeingFraction a report with more than this fraction of its RTTs out of bounds or
 *     disagreeing is dropped whole (default 0.5)
 * @param correctionBaseMs a correction moves a prediction by at most {@link CorrectionBound}: this
 *     (default 5 ms) ...
 * @param correctionPerNetwork ... plus this fraction of the prediction per independent network
 *     (AS) agreeing with it (default 0.1)
 * @param promotedNetworks a server is flagged as promoted when reporters at two or more places far
 *     apart, and at least this many places or networks, report it closer than the coordinator's
 *     prediction by more than one network may move it (default 10: on planetlab490 3 flags 9 % of
 *     the servers on honest reports alone, 6 flags 3.6 %, 10 flags 0.2 %, on another landmark seed
 *     1.9 %; 15 flags at most 0.6 % but lets Sybil floods through more often: eval/README.md); its
 *     predictions are then not lowered
 * @param networkPerServer 1 (default): a network (AS) has one vote per server however many places
 *     it reports from, each observation weighing its share of the network's observations of the
 *     server (200 copied places of one AS count as one reporter); 0: one vote per neighbourhood
 */
public record ReportConfig(double kernelMs, double priorWeight, double groupCap, double maxFactor, int perServer,
    long maxAgeMillis, double movedMs, double triangleSlackMs, double triangleSlackFraction, double upperSlackFactor,
    double maxRejectedFraction, double transfer, int boundRank, int minLandmarks, double servedError,
    double disagreeUncertainties, double maxDisagreeingFraction, double correctionBaseMs, double correctionPerNetwork,
    int promotedNetworks, int networkPerServer) {

  public ReportConfig {
    positive("kernelMs", kernelMs);
    positive("groupCap", groupCap);
    positive("movedMs", movedMs);
    if (!(priorWeight >= 0) || !(maxFactor >= 1) || perServer < 1 || maxAgeMillis < 1 || !(triangleSlackMs >= 0)
        || !(triangleSlackFraction >= 0) || !(upperSlackFactor >= 1) || !(maxRejectedFraction >= 0
        && maxRejectedFraction <= 1) || !(transfer >= 0 && transfer <= 1) || boundRank < 1) {
      throw new IllegalArgumentException("need priorWeight >= 0, maxFactor >= 1, perServer >= 1, maxAge >= 1 ms, "
          + "slacks >= 0, upperSlackFactor >= 1, 0 <= maxRejectedFraction <= 1, 0 <= transfer <= 1, boundRank >= 1");
    }
    if (minLandmarks < 0 || !(servedError >= 0) || !(disagreeUncertainties >= 0) || !(maxDisagreeingFraction >= 0
        && maxDisagreeingFraction <= 1) || !(correctionBaseMs >= 0) || !(correctionPerNetwork >= 0) || promotedNetworks < 1
        || networkPerServer < 0 || networkPerServer > 1) {
      throw new IllegalArgumentException("need minLandmarks >= 0, servedError >= 0, disagreeUncertainties >= 0, "
          + "0 <= maxDisagreeingFraction <= 1, correctionBaseMs >= 0, correctionPerNetwork >= 0, promotedNetworks >= 1, "
          + "networkPerServer 0 or 1");
    }
  }

  /** The documented defaults. */
  public static ReportConfig defaults() {
    return new ReportConfig(1, 0.5, 1, 10, 64, 24L * 3600 * 1000, 10, 5, 0.2, 3, 0.4, 0, 3, 3, 0.15, 3, 0.5, 5, 0.1, 10, 1);
  }

  /**
   * Reads a settings file ({@code --reports-config}): Java properties whose keys are this record's
   * component names; keys not given keep {@link #defaults()}.
   *
   * @throws IllegalArgumentException naming the file and the key of an unknown key or bad value,
   *     or a missing file
   */
  public static ReportConfig load(Path file) {
    return ModelFile.load(file, ReportConfig.class, defaults());
  }

  /** These settings with some replaced by component name ({@code kernelMs -> 3}). */
  public ReportConfig with(Map<String, String> changes) {
    return ModelFile.with(this, changes);
  }

  /** The bound on how far corrections move a prediction. */
  public CorrectionBound correctionBound() {
    return new CorrectionBound(correctionBaseMs, correctionPerNetwork);
  }

  /**
   * How far from the coordinator's prediction an RTT may be before it disagrees: {@link
   * #disagreeUncertainties()} served uncertainties plus {@link #triangleSlackMs()}.
   *
   * @param relativeError the served relative uncertainty, NaN when unknown ({@link #servedError()} then)
   */
  public double disagreeToleranceMs(double predictedMs, double relativeError) {
    double u = Double.isFinite(relativeError) ? relativeError : servedError;
    return disagreeUncertainties * u * predictedMs + triangleSlackMs;
  }

  private static void positive(String name, double v) {
    if (!(v > 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(name + " must be finite and > 0: " + v);
    }
  }
}
