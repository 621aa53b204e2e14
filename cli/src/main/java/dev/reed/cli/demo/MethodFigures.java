package dev.reed.cli.demo;

import java.util.List;

/**
 * One discovery from one client location: a row of the paper's Tables III-VI.
 *
 * @param client the client
 * @param address the client's emulated address
 * @param method "first", "intelligent" (REED), "reports-first", "reports-intelligent" (REED from a new player in the
 *     same city after the first round's discoveries reported (client reports); {@code address} is the new player's), "geo-first", "geo-intelligent" (the list ordered by great-circle
 *     distance from the client's location, no calibration), "zero-first", "zero-intelligent" (the coordinator's
 *     zero-probe ranking from the client's stated location, no calibration) or "traditional"
 * @param probes probes sent, calibration included
 * @param calibrationProbes probes to calibration servers
 * @param timeouts probes without a reply
 * @param found servers that answered
 * @param seconds140 duration at 140 probes/s (measured, or rescaled: see {@code rescaled})
 * @param rescaled true when the probes were sent faster than 140/s and {@code seconds140} is the
 *     probe count at 140/s plus the measured wait for the last replies
 * @param wallSeconds measured wall time at the rate actually used
 * @param rate probes per second actually used
 * @param meanRttMs mean measured RTT of the N_close lowest-RTT servers found
 * @param medianRttMs median of the same
 * @param optimalMeanMs mean true RTT of the N_close nearest servers of the world (an oracle)
 * @param optimalMedianMs median of the same
 * @param nearestFound how many of the true N_close nearest servers are among those found
 * @param positionError relative error of the client's own position fit (NaN for traditional)
 * @param position the client's coordinate and height (null for traditional)
 * @param stopReason why probing stopped
 * @param points (probe index, measured RTT, predicted RTT or NaN, the world's true RTT) of every reply, in
 *     the order the replies arrived
 */
record MethodFigures(DemoWorld.Site client, String address, String method, int probes, int calibrationProbes,
    int timeouts, int found, double seconds140, boolean rescaled, double wallSeconds, double rate, double meanRttMs,
    double medianRttMs, double optimalMeanMs, double optimalMedianMs, int nearestFound, double positionError, double[] position, String stopReason,
    List<double[]> points) {

  /** The same figures in another client's rows (a second-round player's, shown beside its city's first client). */
  MethodFigures inRowsOf(DemoWorld.Site c) {
    return new MethodFigures(c, address, method, probes, calibrationProbes, timeouts, found, seconds140, rescaled, wallSeconds, rate,
        meanRttMs, medianRttMs, optimalMeanMs, optimalMedianMs, nearestFound, positionError, position, stopReason, points);
  }

  /** How far the mean RTT of the N_close best found is above the optimum, ms (the locations target: at most 3 for First). */
  double excessMs() {
    return meanRttMs - optimalMeanMs;
  }

  /** Percent fewer probes than {@code baseline}. */
  double probeReductionVs(MethodFigures baseline) {
    return 100.0 * (1 - (double) probes / baseline.probes());
  }

  /** Percent less time (at 140 probes/s) than {@code baseline}. */
  double timeReductionVs(MethodFigures baseline) {
    return 100.0 * (1 - seconds140 / baseline.seconds140());
  }
}
