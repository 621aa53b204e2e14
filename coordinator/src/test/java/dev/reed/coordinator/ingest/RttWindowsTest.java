package dev.reed.coordinator.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.Stability;
import java.util.List;
import org.junit.jupiter.api.Test;

class RttWindowsTest {
  @Test
  void minimumOverTheLastRoundsAndLossIsNotAnRtt() {
    RttWindows w = new RttWindows(4, 2, 2);
    w.record(0, 0, 1, 50_000);
    w.record(0, 0, 2, RttWindows.LOSS);
    w.record(0, 0, 3, 40_000);
    w.record(0, 0, 4, 45_000);
    assertThat(w.minimumUs(0, 0)).isEqualTo(40_000);
    assertThat(w.copyWindow(0, 0, new int[4])).containsExactly(50_000, RttWindows.LOSS, 40_000, 45_000);
    w.record(0, 0, 7, 60_000); // rounds 5 and 6 were not heard; rounds 1-3 left the window
    assertThat(w.copyWindow(0, 0, new int[4])).containsExactly(45_000, RttWindows.EMPTY, RttWindows.EMPTY, 60_000);
    assertThat(w.minimumUs(0, 0)).isEqualTo(45_000);
    assertThat(w.record(0, 0, 3, 1_000)).as("older than the window").isFalse();
    assertThat(w.minimumUs(0, 0)).isEqualTo(45_000);
    w.record(0, 0, 7, 55_000); // a second probe in the same round keeps the minimum
    w.record(0, 0, 7, RttWindows.LOSS); // a loss never overwrites a reply of the same round
    assertThat(w.copyWindow(0, 0, new int[4])).containsExactly(45_000, RttWindows.EMPTY, RttWindows.EMPTY, 55_000);
    w.record(0, 0, 8, RttWindows.LOSS);
    assertThat(w.copyWindow(0, 0, new int[4])).containsExactly(RttWindows.EMPTY, RttWindows.EMPTY, 55_000, RttWindows.LOSS);
    assertThat(w.minimumUs(0, 0)).isEqualTo(55_000);
    assertThat(w.lastRound(0, 0)).isEqualTo(8);
    assertThat(w.minimumUs(1, 1)).isZero();
    assertThatThrownBy(() -> w.record(0, 0, 9, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void growsWithoutLosingWindowsAndClearsSlots() {
    RttWindows w = new RttWindows(8, 1, 1);
    w.record(0, 0, 1, 10_000);
    w.record(5, 3, 1, 20_000);
    w.record(100, 20, 1, 30_000);
    assertThat(w.minimumUs(0, 0)).isEqualTo(10_000);
    assertThat(w.minimumUs(5, 3)).isEqualTo(20_000);
    assertThat(w.minimumUs(100, 20)).isEqualTo(30_000);
    w.clearTarget(5);
    assertThat(w.minimumUs(5, 3)).isZero();
    w.clearLandmark(20);
    assertThat(w.minimumUs(100, 20)).isZero();
    // beyond the first block of targets, then more landmarks once several blocks exist
    w.record(2_500, 2, 1, 40_000);
    w.record(5_000, 20, 2, 50_000);
    w.record(5_001, 70, 2, 60_000);
    assertThat(w.minimumUs(0, 0)).isEqualTo(10_000);
    assertThat(w.minimumUs(2_500, 2)).isEqualTo(40_000);
    assertThat(w.lastRound(2_500, 2)).isEqualTo(1);
    assertThat(w.minimumUs(5_000, 20)).isEqualTo(50_000);
    assertThat(w.minimumUs(5_001, 70)).isEqualTo(60_000);
    assertThat(w.minimumUs(2_500, 3)).isZero();
    assertThat(w.minimumUs(9_999, 0)).isZero();
    w.clearLandmark(20);
    assertThat(w.minimumUs(5_000, 20)).isZero();
    assertThat(w.minimumUs(5_001, 70)).isEqualTo(60_000);
    w.clearTarget(2_500);
    assertThat(w.minimumUs(2_500, 2)).isZero();
  }

  /** The memory budget of the brief: at most 64 bytes per (landmark, target) pair, measured. */
  @Test
  void memoryPerPairIsMeasuredAndWithinBudget() {
    int targets = 36_000;
    int landmarks = 16;
    RttWindows w = new RttWindows(8, landmarks, targets);
    for (int t = 0; t < targets; t++) for (int l = 0; l < landmarks; l++) w.record(t, l, 1, 1000 + t);
    long pairs = (long) targets * landmarks;
    assertThat(w.bytesPerPair()).isEqualTo(20);
    assertThat(w.bytesAllocated() / (double) pairs).isLessThanOrEqualTo(64);
    // the heap agrees with the arithmetic: blocks of char[] and nothing per pair
    System.gc();
    Runtime rt = Runtime.getRuntime();
    long before = rt.totalMemory() - rt.freeMemory();
    RttWindows second = new RttWindows(8, landmarks, targets);
    for (int t = 0; t < targets; t++) for (int l = 0; l < landmarks; l++) second.record(t, l, 1, 1000 + t % 10_000);
    long after = rt.totalMemory() - rt.freeMemory();
    assertThat(second.minimumUs(targets - 1, landmarks - 1)).isEqualTo(1000 + (targets - 1) % 10_000);
    assertThat((after - before) / (double) pairs).as("measured heap bytes per pair").isLessThan(64);
  }

  /** RTTs are held as 16-bit codes: exact below 16,384 us, at most 2^-13 low above, in order, never LOSS's code. */
  @Test
  void rttCodesAreExactWhereSmallCloseAboveAndInOrder() {
    int previous = -1;
    for (int us = 1; us <= RttWindows.MAX_RTT_US; us++) {
      char code = RttWindows.encode(us);
      int back = RttWindows.decode(code);
      if (us < 16_384) assertThat(back).isEqualTo(us);
      assertThat(back).as("%d us", us).isLessThanOrEqualTo(us).isGreaterThan((int) (us * (1 - 1.0 / 8192)));
      assertThat((int) code).as("monotone at %d us", us).isGreaterThanOrEqualTo(previous).isLessThan(0xffff);
      assertThat(RttWindows.encode(back)).isEqualTo(code);
      previous = code;
    }
    RttWindows w = new RttWindows(4, 1, 1);
    w.record(0, 0, 1, 123_457);
    assertThat(w.minimumUs(0, 0)).isEqualTo(123_456);
    assertThat(w.record(0, 0, 1, 123_458)).as("the same code is no new minimum").isFalse();
    assertThat(w.record(0, 0, 1, RttWindows.MAX_RTT_US)).isFalse();
    assertThat(w.copyWindow(0, 0, new int[4])).containsExactly(RttWindows.EMPTY, RttWindows.EMPTY, RttWindows.EMPTY, 123_456);
    assertThatThrownBy(() -> w.record(0, 0, 2, RttWindows.MAX_RTT_US + 1)).isInstanceOf(IllegalArgumentException.class);
  }

  static RttSample sample(String landmark, long round, int rttUs) {
    RttSample.Builder b = RttSample.newBuilder().setLandmarkId(landmark).setRound(round)
        .setTarget(Endpoint.newBuilder().setIp("10.0.0.1").setPort(27960)).setProtocol(GameProtocol.GAME_PROTOCOL_QUAKE3);
    return rttUs > 0 ? b.setStatus(ProbeStatus.PROBE_STATUS_OK).setRttUs(rttUs).build()
        : b.setStatus(ProbeStatus.PROBE_STATUS_TIMEOUT).build();
  }

  @Test
  void stabilityMedianJitterAndLossFromTheWindows() {
    TargetWindows t = new TargetWindows(8, 4);
    t.setNow(1000);
    int[] near = {20_000, 22_000, 0, 21_000, 30_000};
    for (int r = 0; r < near.length; r++) t.add("10.0.0.1:27960", sample("near", r + 1, near[r]), 0);
    for (int r = 0; r < 5; r++) t.add("10.0.0.1:27960", sample("far", r + 1, r == 0 ? 0 : 90_000), 0);
    TargetWindows.Target target = t.get("10.0.0.1:27960");
    Stability s = t.stability(target);
    assertThat(s.getRounds()).isEqualTo(5);
    assertThat(s.getMedianRttUs()).isEqualTo(21_500); // median of 20, 22, 21, 30 ms
    assertThat(s.getJitterUs()).isEqualTo(2_000); // |22-20|, |21-22|, |30-21| -> 2, 1, 9 ms
    assertThat(s.getLossFraction()).isEqualTo(2 / 10.0);
    assertThat(t.minimaMs(target, List.of("near", "far", "nobody"))).containsExactly(20.0, 90.0, Double.NaN);
    assertThat(t.drainDirty()).containsExactly(target);
    assertThat(t.drainDirty()).isEmpty();
    t.setNow(1000 + 60_000);
    assertThat(t.expire(30_000)).containsExactly("10.0.0.1:27960");
    assertThat(t.size()).isZero();
  }
}
