package dev.reed.coordinator.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.RttBound;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SampleValidatorTest {
  final SampleValidator v = new SampleValidator(Set.of("a", "b")::contains);

  static RttSample ok() {
    return RttSample.newBuilder().setLandmarkId("a").setRound(1)
        .setTarget(Endpoint.newBuilder().setIp("10.0.0.1").setPort(27960)).setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3)
        .setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(1000).build();
  }

  String check(RttSample s) {
    String key = dev.reed.proto.Endpoints.key(s.getTarget());
    return v.check(s, "10.0.0.1:27960", key, false);
  }

  @Test
  void everyRuleNamesWhatIsWrong() {
    assertThat(check(ok())).isNull();
    assertThat(check(ok().toBuilder().setStatus(ProbeStatus.PROBE_STATUS_TIMEOUT).clearRttUs().build())).isNull();
    assertThat(check(ok().toBuilder().setRttUs(0).build())).contains("rtt_us out of range");
    assertThat(check(ok().toBuilder().setRttUs(999_000).build())).contains("rtt_us out of range");
    assertThat(check(ok().toBuilder().setRttUs(-5).build())).contains("rtt_us out of range 1-" + RttBound.MAX_US + ": 4294967291");
    assertThat(check(ok().toBuilder().setLandmarkId("").build())).isEqualTo("missing landmark_id");
    assertThat(check(ok().toBuilder().setLandmarkId("zz").build())).isEqualTo("unknown landmark 'zz'");
    assertThat(check(ok().toBuilder().clearTarget().build())).isEqualTo("missing target");
    assertThat(check(ok().toBuilder().setTarget(Endpoint.newBuilder().setIp("example.com").setPort(1)).build()))
        .contains("bad target endpoint");
    assertThat(check(ok().toBuilder().setTarget(Endpoint.newBuilder().setIp("10.0.0.1").setPort(70000)).build()))
        .contains("port out of range");
    assertThat(check(ok().toBuilder().setTarget(Endpoint.newBuilder().setIp("10.0.0.2").setPort(27960)).build()))
        .contains("differs from target");
    assertThat(check(ok().toBuilder().setProtocol(GameProtocol.GAME_PROTOCOL_UNSPECIFIED).build())).contains("protocol");
    assertThat(check(ok().toBuilder().setStatusValue(17).build())).contains("status");
    MeshSample m = MeshSample.newBuilder().setLandmarkId("a").setPeerLandmarkId("b").setRound(1)
        .setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(5000).build();
    assertThat(v.check(m)).isNull();
    assertThat(v.check(m.toBuilder().setPeerLandmarkId("a").build())).contains("itself");
    assertThat(v.check(m.toBuilder().setPeerLandmarkId("q").build())).contains("unknown peer landmark 'q'");
    assertThat(v.check(m.toBuilder().setRttUs(0).build())).contains("rtt_us");
  }
}
