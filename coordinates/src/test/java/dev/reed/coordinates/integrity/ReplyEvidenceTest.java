package dev.reed.coordinates.integrity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** How the agents' reply forensics name and flag what answers for a server ({@link ServerConsistency}). */
class ReplyEvidenceTest {
  // ServerConsistencyTest's five landmarks on a line
  private final ServerConsistency check = new ServerConsistency(IntegrityConfig.defaults());
  private final MeshBounds bounds = check.bounds(ServerConsistencyTest.mesh(), null, null);
  /** Near landmark 0 and landmark 4, 160 ms apart: the anycast/proxy pattern. */
  private static final double[] NEAR_BOTH_ENDS = {3, 45, 60, 8, 4};

  @Test
  void identicalRepliesAtImpossibleRttsAreOneCachedReply() {
    IntegrityVerdict v = check.check(bounds, NEAR_BOTH_ENDS, null, null, new ReplyEvidence(0, new long[] {7, 7, 7, 7, 7}));
    assertThat(v.kind()).isEqualTo(IntegrityKind.PROXY);
    assertThat(v.sameReplyPairs()).isPositive();
    assertThat(v.differentReplyPairs()).isZero();
    assertThat(v.evidence()).contains("identical replies in");
  }

  @Test
  void differentRepliesAtImpossibleRttsAreSeveralInstances() {
    IntegrityVerdict v = check.check(bounds, NEAR_BOTH_ENDS, null, null, new ReplyEvidence(0, new long[] {1, 2, 3, 4, 5}));
    assertThat(v.kind()).isEqualTo(IntegrityKind.ANYCAST);
    assertThat(v.differentReplyPairs()).isPositive();
    assertThat(v.sameReplyPairs()).isZero();
  }

  @Test
  void withoutDigestsOrWithATieTheKindStaysOpen() {
    assertThat(check.check(bounds, NEAR_BOTH_ENDS, null, null, ReplyEvidence.NONE).kind())
        .isEqualTo(IntegrityKind.ANYCAST_OR_PROXY);
    // only the landmarks at 0 and 4 had replies compared... one digest missing: nothing compared
    assertThat(check.check(bounds, NEAR_BOTH_ENDS, null, null, new ReplyEvidence(0, new long[] {9, 0, 0, 0, 0})).kind())
        .isEqualTo(IntegrityKind.ANYCAST_OR_PROXY);
  }

  @Test
  void digestsNeverFlagAConsistentServer() {
    long[] identical = {5, 5, 5, 5, 5};
    for (double x = -50; x <= 210; x += 5) {
      IntegrityVerdict v = check.check(bounds, ServerConsistencyTest.hostAt(x), null, null, new ReplyEvidence(0, identical));
      assertThat(v.kind()).as("x=%s", x).isEqualTo(IntegrityKind.OK);
      assertThat(v.evidence()).isEmpty();
    }
  }

  @Test
  void repliesARealServerWouldNotSendFlagAProxyWhateverItsRtts() {
    IntegrityVerdict one = check.check(bounds, ServerConsistencyTest.hostAt(100), null, null, new ReplyEvidence(1, null));
    assertThat(one.kind()).as("one stale echo: a late reply can do that").isEqualTo(IntegrityKind.OK);
    assertThat(one.replyTells()).isEqualTo(1);
    IntegrityVerdict two = check.check(bounds, ServerConsistencyTest.hostAt(100), null, null, new ReplyEvidence(2, null));
    assertThat(two.kind()).isEqualTo(IntegrityKind.PROXY);
    assertThat(two.evidence()).isEqualTo("2 replies a real server would not send");
    // tells name a proxy even where different digests would say anycast
    assertThat(check.check(bounds, NEAR_BOTH_ENDS, null, null, new ReplyEvidence(3, new long[] {1, 2, 3, 4, 5})).kind())
        .isEqualTo(IntegrityKind.PROXY);
  }

  @Test
  void theThresholdIsASetting() {
    ServerConsistency strict = new ServerConsistency(IntegrityConfig.defaults().with(java.util.Map.of("minReplyTells", "5")));
    assertThat(strict.check(bounds, ServerConsistencyTest.hostAt(100), null, null, new ReplyEvidence(4, null)).kind()).isEqualTo(IntegrityKind.OK);
    assertThat(strict.check(bounds, ServerConsistencyTest.hostAt(100), null, null, new ReplyEvidence(5, null)).kind()).isEqualTo(IntegrityKind.PROXY);
    assertThatThrownBy(() -> IntegrityConfig.defaults().with(java.util.Map.of("minReplyTells", "0"))).hasMessageContaining("minReplyTells");
    assertThatThrownBy(() -> new ReplyEvidence(-1, null)).hasMessageContaining("tells < 0");
  }
}
