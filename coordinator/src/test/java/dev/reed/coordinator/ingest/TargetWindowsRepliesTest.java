package dev.reed.coordinator.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.ChallengeCheck;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The agents' reply forensics as the windows keep them: tells over the window, digests of watched targets. */
class TargetWindowsRepliesTest {
  static final Endpoint TARGET = Endpoint.newBuilder().setIp("10.9.8.7").setPort(27015).build();
  static final String KEY = Endpoints.key(TARGET);

  private static RttSample.Builder sample(String landmark, long round) {
    return RttSample.newBuilder().setLandmarkId(landmark).setRound(round).setTarget(TARGET)
        .setProtocol(GameProtocol.GAME_PROTOCOL_A2S).setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(20_000);
  }

  @Test
  void tellsCountOverEachLandmarksWindowOnceAndSlideOut() {
    TargetWindows w = new TargetWindows(8, 4);
    w.add(KEY, sample("lm-a", 0).setChallengeCheck(ChallengeCheck.CHALLENGE_CHECK_REFUSED).build(), 0);
    TargetWindows.Target t = w.get(KEY);
    w.drainDirty();
    assertThat(w.replyTells(t)).as("a refused forged challenge is what a real server does").isZero();
    assertThat(t.takeReplyNews()).isFalse();

    w.add(KEY, sample("lm-a", 1).setChallengeCheck(ChallengeCheck.CHALLENGE_CHECK_ACCEPTED).build(), 0);
    RttSample stale = sample("lm-b", 0).setStatus(ProbeStatus.PROBE_STATUS_TIMEOUT).clearRttUs().setStaleChallengeReplies(1)
        .build();
    w.add(KEY, stale, 0);
    w.add(KEY, stale, 0); // redelivered: counted once
    assertThat(w.replyTells(t)).isEqualTo(2);
    assertThat(t.takeReplyNews()).isTrue();
    assertThat(t.takeReplyNews()).isFalse();
    assertThat(w.drainDirty()).as("a tell makes the target a candidate though no minimum moved").containsExactly(t);

    w.add(KEY, sample("lm-a", 8).build(), 0); // lm-a's round 1 is still in its 8-round window (1..8)
    assertThat(w.replyTells(t)).isEqualTo(2);
    w.add(KEY, sample("lm-a", 9).build(), 0); // now it slid out; lm-b's round 0 is still in lm-b's window
    assertThat(w.replyTells(t)).isEqualTo(1);
  }

  @Test
  void digestsAreKeptOnlyForWatchedTargets() {
    TargetWindows w = new TargetWindows(8, 4);
    w.add(KEY, sample("lm-a", 1).setReplyDigest(11).build(), 0);
    TargetWindows.Target t = w.get(KEY);
    assertThat(w.replyDigests(t, List.of("lm-a"))).isNull();
    w.watchReplies(t, true);
    t.takeReplyNews();
    w.add(KEY, sample("lm-a", 2).setReplyDigest(11).build(), 0);
    w.add(KEY, sample("lm-b", 2).setReplyDigest(22).build(), 0);
    w.add(KEY, sample("lm-c", 2).setStatus(ProbeStatus.PROBE_STATUS_TIMEOUT).clearRttUs().build(), 0);
    assertThat(w.replyDigests(t, List.of("lm-b", "lm-a", "lm-c", "lm-x"))).containsExactly(22, 11, 0, 0);
    assertThat(t.takeReplyNews()).isTrue();
    w.add(KEY, sample("lm-b", 3).setReplyDigest(22).build(), 0);
    assertThat(t.takeReplyNews()).as("the same digest again is no news").isFalse();
    w.watchReplies(t, false);
    assertThat(w.replyDigests(t, List.of("lm-a"))).isNull();
  }
}
