package dev.reed.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The figures docs/operations.md sizes Kafka with are the real encoded sizes of the wire contract
 * (reed.v1 RttSample), not guesses: a typical answered A2S probe with full server info and a
 * timed-out probe, encoded with the generated protobuf classes. The guide must state exactly these
 * numbers, and the topic partition counts of {@link Topic}.
 */
class SizingFiguresTest {

  static RttSample answered() {
    ServerInfo info = ServerInfo.newBuilder().setName("[EU] Frankfurt #3 | 128 tick | Competitive")
        .setMap("de_dust2").setGame("csgo").setGameDescription("Counter-Strike: Global Offensive")
        .setPlayers(17).setMaxPlayers(24).setBots(2).setSecure(true).setVersion("1.38.8.1").setAppId(730)
        .setGameType("competitive,secure,valve_ds,empty,128tick").build();
    return RttSample.newBuilder().setLandmarkId("eu-frankfurt").setRound(105_120)
        .setTarget(Endpoint.newBuilder().setIp("203.0.113.77").setPort(27015))
        .setProtocol(GameProtocol.GAME_PROTOCOL_A2S).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(48_213)
        .setSendTime(Timestamp.newBuilder().setSeconds(1_795_000_000L).setNanos(123_456_789))
        .setServerInfo(info).setChallengeRttUs(47_990).build();
  }

  static RttSample timedOut() {
    return answered().toBuilder().clearServerInfo().clearRttUs().clearChallengeRttUs()
        .setStatus(ProbeStatus.PROBE_STATUS_TIMEOUT).build();
  }

  @Test
  void operationsGuideUsesTheEncodedSampleSizes() throws Exception {
    int ok = answered().getSerializedSize();
    int timeout = timedOut().getSerializedSize();
    assertThat(ok).isBetween(150, 400);
    assertThat(timeout).isBetween(30, 100);

    Path guide = Checkout.root().resolve("docs/operations.md");
    String text = Files.readString(guide);
    assertThat(text).as("docs/operations.md states the measured RttSample sizes")
        .contains("RttSample answered (A2S, full server info): " + ok + " bytes")
        .contains("RttSample timed out: " + timeout + " bytes");
    assertThat(text).contains(Topic.SAMPLES.name() + "` has " + Topic.SAMPLES.partitions() + " partitions");
  }
}
