package dev.reed.client;

import dev.reed.coordinates.autostop.AutoStopPolicy;
import dev.reed.probe.ProbeResult;

/** Maps a {@link StopRule} to the coordinates module's auto-stop policies (one fresh policy per discovery). */
final class StopConditions {
  private StopConditions() {}

  static StopCondition of(StopRule rule) {
    AutoStopPolicy policy = switch (rule) {
      case StopRule.FirstClose f -> AutoStopPolicy.firstNClose(f.nClose());
      case StopRule.IntelligentClose i -> AutoStopPolicy.intelligentNClose(i.nClose(), i.window(), i.marginMs());
      case StopRule.RttStop r -> AutoStopPolicy.rttStop(r.rttStopMs(), r.window());
      case StopRule.RttLimit l -> AutoStopPolicy.rttLimit(l.limitMs(), l.deltaMs());
      case StopRule.Exhaustive e -> AutoStopPolicy.exhaustive();
    };
    // First N_close counts answers and RTT_limit + delta decides from predictions before each
    // probe: neither depends on the order of replies, so they see them as they arrive and one
    // silent server cannot hold the decision for a whole probe timeout while probing goes on.
    // Algorithms 5 and 6 reason about the probe sequence and keep probe order.
    boolean arrivalOrder = rule instanceof StopRule.FirstClose || rule instanceof StopRule.RttLimit;
    return new StopCondition() {
      @Override
      public boolean inProbeOrder() {
        return !arrivalOrder;
      }

      @Override
      public boolean observe(Candidate c, ProbeResult r) {
        return policy.observe(c.predictedMs(), r.ok() ? r.rttNanos() / 1e6 : AutoStopPolicy.NO_REPLY);
      }

      @Override
      public boolean stopBefore(Candidate next) {
        return policy.stopBefore(next.predictedMs());
      }
    };
  }
}
