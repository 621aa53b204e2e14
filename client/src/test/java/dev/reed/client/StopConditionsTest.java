package dev.reed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinates.ModelFile;
import dev.reed.coordinates.discovery.DiscoveryModel;
import dev.reed.probe.ProbeResult;
import dev.reed.probe.ProbeTarget;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ProbeStatus;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The SDK's stop rules reach the coordinates module's policies with every parameter. */
class StopConditionsTest {

  /** Probes (in order) until the condition says stop; the count. */
  private static int run(StopRule rule, double... rttMs) {
    StopCondition stop = StopConditions.of(rule);
    for (int i = 0; i < rttMs.length; i++) {
      Candidate c = new Candidate(new InetSocketAddress("127.0.0.1", 27960 + i), GameProtocol.GAME_PROTOCOL_QUAKE3, rttMs[i]);
      ProbeResult r = new ProbeResult(new ProbeTarget(c.address(), c.protocol()), ProbeStatus.PROBE_STATUS_OK,
          (long) (rttMs[i] * 1e6), 0, Instant.EPOCH, null, null);
      if (stop.observe(c, r)) return i + 1;
    }
    return rttMs.length;
  }

  @Test
  void intelligentMarginKeepsSmallSwapsFromRestartingTheWindow() {
    // the set of 3 is full at probe 4; probe 6 improves it by 0.5 ms only
    double[] rtt = {30, 10, 11, 12, 40, 11.5, 50, 60, 70, 80, 90, 95};
    assertThat(run(new StopRule.IntelligentClose(3, 5), rtt)).isEqualTo(11);
    assertThat(run(new StopRule.IntelligentClose(3, 5, 1.0), rtt)).isEqualTo(9);
    assertThatThrownBy(() -> new StopRule.IntelligentClose(3, 5, -0.5)).hasMessageContaining("marginMs must be finite and >= 0");
  }

  /** The stop rules' tunables come from the discovery model (the --model file); its defaults are the paper's rules. */
  @Test
  void theModelGivesTheWindowMarginAndDelta() {
    double[] rtt = {30, 10, 11, 12, 40, 11.5, 50, 60, 70, 80, 90, 95};
    DiscoveryModel model = ModelFile.with(DiscoveryModel.defaults(),
        Map.of("intelligentWindow", "5", "windowMarginMs", "1", "rttStopWindow", "7", "rttLimitDeltaMs", "12.5"));
    assertThat(run(StopRule.intelligent(3, model), rtt)).isEqualTo(run(new StopRule.IntelligentClose(3, 5, 1.0), rtt)).isEqualTo(9);
    assertThat(StopRule.rttStop(100, model)).isEqualTo(new StopRule.RttStop(100, 7));
    assertThat(StopRule.rttLimit(150, model)).isEqualTo(new StopRule.RttLimit(150, 12.5));
    assertThat(StopRule.intelligent(10)).isEqualTo(new StopRule.IntelligentClose(10, 20, 0));
    assertThat(StopRule.rttStop(150)).isEqualTo(new StopRule.RttStop(150, 100));
    assertThat(StopRule.rttLimit(150, DiscoveryModel.defaults())).isEqualTo(new StopRule.RttLimit(150, 30));
    assertThatThrownBy(() -> ModelFile.with(DiscoveryModel.defaults(), Map.of("intelligentWindow", "0")))
        .hasMessageContaining("intelligentWindow and rttStopWindow must be >= 1");
  }
}
