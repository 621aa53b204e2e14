package dev.reed.coordinator.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.LandmarkRtt;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A target taken over from another replica starts from the minima that replica published. */
class TargetWindowsSeedTest {
  static final Endpoint TARGET = Endpoint.newBuilder().setIp("10.9.8.7").setPort(27015).build();
  static final String KEY = Endpoints.key(TARGET);
  static final List<LandmarkRtt> MINIMA = List.of(
      LandmarkRtt.newBuilder().setLandmarkId("lm-a").setRttUs(20_000).build(),
      LandmarkRtt.newBuilder().setLandmarkId("lm-b").setRttUs(55_500).build());

  static void sample(TargetWindows w, String landmark, long round, int rttUs) {
    w.add(KEY, RttSample.newBuilder().setLandmarkId(landmark).setRound(round).setTarget(TARGET)
        .setProtocol(GameProtocol.GAME_PROTOCOL_A2S).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(rttUs).build(), 3);
  }

  @Test
  void seededMinimaAreTheWindowsMinimaUntilALowerSampleOrTheWindowSlidesThemOut() {
    TargetWindows w = new TargetWindows(8, 4);
    w.setNow(1_000);
    assertThat(w.seed(KEY, TARGET, GameProtocol.GAME_PROTOCOL_A2S, ServerInfo.newBuilder().setName("a").build(), 100, 3, MINIMA))
        .isTrue();
    TargetWindows.Target t = w.get(KEY);
    assertThat(w.minimaMs(t, List.of("lm-a", "lm-b", "lm-c"))).containsExactly(20.0, 55.5, Double.NaN);
    assertThat(t.info().getName()).isEqualTo("a");
    assertThat(w.drainDirty()).containsExactly(t);
    assertThat(w.seed(KEY, TARGET, GameProtocol.GAME_PROTOCOL_A2S, null, 101, 3, List.of())).as("known already").isFalse();

    sample(w, "lm-a", 101, 21_000); // higher than the seeded minimum: the minimum stays
    sample(w, "lm-b", 101, 50_000); // lower: it becomes the minimum
    assertThat(w.minimaMs(t, List.of("lm-a", "lm-b"))).containsExactly(20.0, 50.0);
    sample(w, "lm-a", 108, 23_000); // round 100 slides out of the 8-round window, 101 is still in
    assertThat(w.minimaMs(t, List.of("lm-a"))).containsExactly(21.0);
    sample(w, "lm-a", 109, 23_000);
    assertThat(w.minimaMs(t, List.of("lm-a"))).containsExactly(23.0);
  }

  @Test
  void aSeededTargetNeverHeardExpiresWithoutATombstoneAHeardOneWithOne() {
    TargetWindows w = new TargetWindows(8, 4);
    w.setNow(1_000);
    Endpoint other = Endpoint.newBuilder().setIp("10.9.8.6").setPort(27015).build();
    w.seed(KEY, TARGET, GameProtocol.GAME_PROTOCOL_A2S, null, 100, 3, MINIMA);
    w.seed(Endpoints.key(other), other, GameProtocol.GAME_PROTOCOL_A2S, null, 100, 3, MINIMA);
    sample(w, "lm-a", 101, 21_000);
    w.setNow(100_000);
    assertThat(w.expire(60_000)).containsExactly(KEY);
    assertThat(w.size()).isZero();
  }
}
