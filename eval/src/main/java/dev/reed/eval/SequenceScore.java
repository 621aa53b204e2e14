package dev.reed.eval;

import dev.reed.coordinates.Stats;
import dev.reed.coordinates.autostop.AutoStopPolicy;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Scores one client's probe sequence the same way for every method (REED and the baselines):
 * First P@N_close, probes until all N_close nearest were seen, and every auto-stop policy applied
 * to the sequence. A sequence is the servers in the order the client handles them: the predicted
 * RTT it had for each, the RTT measured (NaN = no reply) and the probes sent once it was known,
 * calibration included (a server already measured in calibration costs none again).
 */
final class SequenceScore {
  private final EvalSettings s;

  SequenceScore(EvalSettings s) {
    this.s = s;
  }

  /**
   * The truth a client's sequences are scored against.
   *
   * @param nClose N_close, or fewer when fewer servers answer at all
   * @param kthMs RTT of the N_close-th nearest server (ties with it count as right)
   * @param optimalMeanMs mean RTT of the true N_close nearest
   */
  record Truth(int nClose, double kthMs, double optimalMeanMs, double[] actual) {}

  /** The truth for a client whose servers measure {@code actual} (NaN = no reply). */
  Truth truth(double[] actual) {
    double[] finite = Arrays.stream(actual).filter(Double::isFinite).sorted().toArray();
    int nClose = Math.min(s.nClose(), finite.length);
    double kth = nClose == 0 ? Double.NaN : finite[nClose - 1];
    double optimalMean = 0;
    for (int k = 0; k < nClose; k++) {
      optimalMean += finite[k] / nClose;
    }
    return new Truth(nClose, kth, optimalMean, actual);
  }

  /** Share of the first N_close answering servers that are among the true N_close nearest. */
  double precisionAtNClose(double[] rtt, Truth t) {
    int correctFirst = 0;
    int answered = 0;
    for (double r : rtt) {
      if (Double.isFinite(r)) {
        if (answered < s.nClose() && r <= t.kthMs()) {
          correctFirst++;
        }
        answered++;
      }
    }
    return t.nClose() == 0 ? Double.NaN : Math.min(1.0, correctFirst / (double) t.nClose());
  }

  /**
   * Probes (calibration included) until every one of the true N_close nearest was probed, or
   * {@code notAllSeen} when the sequence never shows them all.
   */
  int allNearestSeen(double[] rtt, int[] probesAt, Truth t, int notAllSeen) {
    int seen = 0;
    for (int k = 0; k < rtt.length; k++) {
      double r = rtt[k];
      if (Double.isFinite(r) && r <= t.kthMs() && ++seen == t.nClose()) {
        return probesAt[k];
      }
    }
    return notAllSeen;
  }

  /** Every auto-stop policy of the report, by name, applied to the sequence. */
  Map<String, PolicyOutcome> policies(double[] pred, double[] rtt, int[] probesAt, int calib, Truth t) {
    Map<String, PolicyOutcome> policies = new LinkedHashMap<>();
    evaluate(policies, "first", () -> AutoStopPolicy.firstNClose(s.nClose()), pred, rtt, probesAt, calib, t, Double.NaN);
    evaluate(policies, "intelligent", () -> AutoStopPolicy.intelligentNClose(s.nClose(), s.window(), s.windowMarginMs()),
        pred, rtt, probesAt, calib, t, Double.NaN);
    for (double stop : EvalSettings.RTT_STOPS) {
      evaluate(policies, "rttstop" + (int) stop, () -> AutoStopPolicy.rttStop(stop, s.model().rttStopWindow()),
          pred, rtt, probesAt, calib, t, stop);
    }
    evaluate(policies, "exhaustive", AutoStopPolicy::exhaustive, pred, rtt, probesAt, calib, t, Double.NaN);
    return policies;
  }

  private void evaluate(Map<String, PolicyOutcome> out, String name, Supplier<AutoStopPolicy> factory,
      double[] pred, double[] rtt, int[] probesAt, int calib, Truth t, double playableMs) {
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
        if (seenRtt[i] <= t.kthMs()) {
          correct++;
        }
      }
      median = Stats.quantile(Arrays.copyOf(seenRtt, nf), 0.5);
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
      for (double v : t.actual()) {
        if (Double.isFinite(v) && v <= playableMs) {
          playableTotal++;
        }
      }
    }
    out.put(name, new PolicyOutcome(k == 0 ? calib : probesAt[k - 1], mean, median, precision, playableFound, playableTotal));
  }
}
