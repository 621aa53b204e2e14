package dev.reed.coordinator.ingest;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.proto.v1.ChallengeCheck;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ProbeStatus;
import dev.reed.proto.v1.RttSample;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.proto.v1.Stability;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ingest state of one replica: target and landmark slots over an {@link RttWindows}, plus the
 * per-target facts the positioning round publishes (protocol, latest server info, partition,
 * when it was last heard). Per-target objects are fine (tens of thousands); per-pair state lives
 * only in the flat array.
 *
 * <p>Not thread-safe: owned by the ingest loop, which also runs the positioning rounds.
 */
public final class TargetWindows {
  /**
   * What the replica knows about a target besides its windows. The endpoint and server info are
   * held encoded: parsed, with their strings, they were about 300 B of each owned target's heap
   * (estimated from a class histogram at 250,000 x 30, docs/research/scale.md), and positioning
   * reads them once per fit.
   */
  public static final class Target {
    final String key;
    final int slot;
    private final byte[] endpoint;
    GameProtocol protocol;
    private byte[] info;
    /** The round the server info is from: kept from the first answered sample of each newer round. */
    private long infoRound = -1;
    int partition;
    long lastHeardMillis;
    long newestRound;
    boolean dirty;
    /** Seeded from the previous owner's minima and not heard since (see {@link #seed}). */
    boolean seeded;
    /**
     * Samples whose reply a real server would not send, as {@code PRESENT | landmark slot << 32 | round}, a
     * ring of {@value #TELLS}; null until the first (honest servers never allocate it).
     */
    private long[] tells;
    private int nextTell;
    /** Each landmark slot's latest reply digest (0 = none); kept only while watched (see {@link #watchReplies}). */
    private long[] digests;
    /** A tell or a changed digest since positioning last looked: its verdict may change though its minima did not. */
    private boolean replyNews;

    Target(String key, int slot, Endpoint endpoint) {
      this.key = key;
      this.slot = slot;
      this.endpoint = endpoint.toByteArray();
    }

    public String key() { return key; }
    public int slot() { return slot; }

    public Endpoint endpoint() {
      try {
        return Endpoint.parseFrom(endpoint);
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException("a target's own endpoint bytes do not parse", e);
      }
    }

    public GameProtocol protocol() { return protocol; }

    /** The server info of the first answered sample of the newest round that carried one; null if none did. */
    public ServerInfo info() {
      try {
        return info == null ? null : ServerInfo.parseFrom(info);
      } catch (InvalidProtocolBufferException e) {
        throw new IllegalStateException("a target's own server info bytes do not parse", e);
      }
    }

    void info(ServerInfo i, long round) {
      info = i.toByteArray();
      infoRound = round;
    }

    public int partition() { return partition; }
    public long newestRound() { return newestRound; }

    /** Whether a tell arrived or a watched digest changed since the last call; clears it. */
    public boolean takeReplyNews() {
      boolean news = replyNews;
      replyNews = false;
      return news;
    }

    private void tell(int landmark, long round) {
      long entry = PRESENT | (long) landmark << 32 | (round & 0x7fffffffL);
      if (tells == null) tells = new long[TELLS];
      for (long e : tells) if (e == entry) return; // a redelivered sample
      tells[nextTell] = entry;
      nextTell = (nextTell + 1) % TELLS;
      replyNews = true;
    }

    private void digest(int landmark, long digest) {
      if (digests == null || digest == 0) return;
      if (landmark >= digests.length) digests = Arrays.copyOf(digests, Math.max(landmark + 1, digests.length * 2));
      if (digests[landmark] != digest) replyNews = true;
      digests[landmark] = digest;
    }
  }

  /** Tells kept per target: more than any threshold needs. */
  private static final int TELLS = 16;
  /** Marks a used entry of a target's tells (slot 0, round 0 would otherwise read as empty). */
  private static final long PRESENT = Long.MIN_VALUE;

  private final RttWindows windows;
  private final Map<String, Target> targets = new HashMap<>();
  private final ArrayDeque<Integer> freeSlots = new ArrayDeque<>();
  private final Map<String, Integer> landmarkSlots = new HashMap<>();
  private int nextTargetSlot;
  private long nowMillis;
  private final int[] scratch;
  private final int[] scratch2;

  public TargetWindows(int window, int expectedTargets) {
    this.windows = new RttWindows(window, 16, Math.max(16, expectedTargets));
    this.scratch = new int[window];
    this.scratch2 = new int[window];
  }

  public RttWindows windows() {
    return windows;
  }

  /** Sets the wall-clock time (from the injected clock) that samples added from now on are heard at. */
  public void setNow(long epochMillis) {
    this.nowMillis = epochMillis;
  }

  public int size() {
    return targets.size();
  }

  public int landmarkSlot(String landmarkId) {
    return landmarkSlots.computeIfAbsent(landmarkId, id -> landmarkSlots.size());
  }

  /** Adds a validated sample; returns true if it changed the target's window. */
  public boolean add(String key, RttSample s, int partition) {
    Target t = targets.get(key);
    if (t == null) {
      int slot = freeSlots.isEmpty() ? nextTargetSlot++ : freeSlots.pop();
      t = new Target(key, slot, s.getTarget());
      targets.put(key, t);
    }
    t.protocol = s.getProtocol();
    t.partition = partition;
    t.lastHeardMillis = nowMillis;
    if (s.getRound() > t.newestRound) t.newestRound = s.getRound();
    t.seeded = false;
    int rtt = s.getStatus() == ProbeStatus.PROBE_STATUS_OK ? s.getRttUs() : RttWindows.LOSS;
    if (s.getStatus() == ProbeStatus.PROBE_STATUS_OK && s.hasServerInfo() && s.getRound() > t.infoRound) {
      t.info(s.getServerInfo(), s.getRound());
    }
    int landmark = landmarkSlot(s.getLandmarkId());
    if (s.getStaleChallengeReplies() > 0 || s.getChallengeCheck() == ChallengeCheck.CHALLENGE_CHECK_ACCEPTED) {
      t.tell(landmark, s.getRound());
    }
    if (s.getStatus() == ProbeStatus.PROBE_STATUS_OK) t.digest(landmark, s.getReplyDigest());
    boolean changed = windows.record(t.slot, landmark, s.getRound(), rtt);
    if (changed || t.replyNews) t.dirty = true;
    return changed;
  }

  /**
   * Seeds a target this replica just took over with the window minima its previous owner published
   * (ServerCoordinate.landmark_rtts), at the round it published them: positioning can take the
   * target over at once instead of after replaying the windows' W rounds from the broker (at
   * 250,000 x 30, minutes). Each minimum is one sample of that round, so it slides out of the window
   * W rounds later like any other; a real sample of the same round that is lower replaces it. A
   * target already in the windows is left alone.
   *
   * @return false if the target was already known
   */
  public boolean seed(String key, Endpoint endpoint, GameProtocol protocol, ServerInfo info, long round, int partition,
      List<dev.reed.proto.v1.LandmarkRtt> minima) {
    if (targets.containsKey(key)) return false;
    int slot = freeSlots.isEmpty() ? nextTargetSlot++ : freeSlots.pop();
    Target t = new Target(key, slot, endpoint);
    targets.put(key, t);
    t.protocol = protocol;
    if (info != null) t.info(info, round);
    t.partition = partition;
    t.lastHeardMillis = nowMillis;
    t.newestRound = round;
    t.seeded = true;
    for (dev.reed.proto.v1.LandmarkRtt m : minima) {
      if (m.getRttUs() > 0) windows.record(slot, landmarkSlot(m.getLandmarkId()), round, m.getRttUs());
    }
    t.dirty = true;
    return true;
  }

  public Target get(String key) {
    return targets.get(key);
  }

  /**
   * Starts or stops keeping a target's reply digests: the coordinator compares them only for servers
   * its RTT check flags, so only those pay for them (8 bytes per landmark).
   */
  public void watchReplies(Target t, boolean watch) {
    if (watch && t.digests == null) t.digests = new long[Math.max(1, landmarkSlots.size())];
    else if (!watch) t.digests = null;
  }

  /**
   * Samples of the landmarks' windows (each landmark's last W rounds) whose reply a real server
   * would not send: a stale echoed challenge, an A2S info answered to a forged challenge.
   */
  public int replyTells(Target t) {
    if (t.tells == null) return 0;
    int n = 0;
    for (long e : t.tells) {
      if (e == 0) continue;
      int landmark = (int) ((e & ~PRESENT) >>> 32);
      long last = windows.lastRound(t.slot, landmark);
      if (last >= 0 && (e & 0x7fffffffL) > last - windows.window()) n++;
    }
    return n;
  }

  /** Each landmark's latest reply digest (0 = none) in the given order; null unless watched. */
  public long[] replyDigests(Target t, List<String> landmarkIds) {
    if (t.digests == null) return null;
    long[] out = new long[landmarkIds.size()];
    for (int i = 0; i < out.length; i++) {
      Integer l = landmarkSlots.get(landmarkIds.get(i));
      out[i] = l == null || l >= t.digests.length ? 0 : t.digests[l];
    }
    return out;
  }

  /** Targets changed since the last call, clearing their dirty flag. */
  public List<Target> drainDirty() {
    List<Target> out = new ArrayList<>();
    for (Target t : targets.values()) {
      if (t.dirty) {
        t.dirty = false;
        out.add(t);
      }
    }
    return out;
  }

  /** All targets, for a full re-fit after the landmark embedding changed. */
  public List<Target> all() {
    return new ArrayList<>(targets.values());
  }

  /**
   * Drops targets not heard for {@code maxAgeMillis}; returns their keys, to tombstone. A seeded
   * target never heard is dropped without: this replica never owned it by a sample (its partition
   * may be another's if the agents partition differently), and the leader's sweep deletes a
   * coordinate nobody refreshes.
   */
  public List<String> expire(long maxAgeMillis) {
    List<String> gone = new ArrayList<>();
    for (Target t : List.copyOf(targets.values())) {
      if (nowMillis - t.lastHeardMillis >= maxAgeMillis) {
        remove(t);
        if (!t.seeded) gone.add(t.key);
      }
    }
    return gone;
  }

  /** Drops targets of partitions this replica no longer owns. */
  public int dropPartitions(java.util.Collection<Integer> partitions) {
    int n = 0;
    for (Target t : List.copyOf(targets.values())) {
      if (partitions.contains(t.partition)) {
        remove(t);
        n++;
      }
    }
    return n;
  }

  private void remove(Target t) {
    targets.remove(t.key);
    windows.clearTarget(t.slot);
    freeSlots.push(t.slot);
  }

  /**
   * Window minima in ms towards the given landmarks, NaN where a landmark has no RTT in the window.
   */
  public double[] minimaMs(Target t, List<String> landmarkIds) {
    double[] out = new double[landmarkIds.size()];
    for (int i = 0; i < out.length; i++) {
      Integer l = landmarkSlots.get(landmarkIds.get(i));
      int us = l == null ? 0 : windows.minimumUs(t.slot, l);
      out[i] = us > 0 ? us / 1000.0 : Double.NaN;
    }
    return out;
  }

  /**
   * Window spread in ms towards the given landmarks: 90th percentile minus minimum of the window's
   * RTTs ({@code LandmarkResiduals.spread}), NaN with fewer than two. The lying-landmark check
   * compares it between landmarks.
   */
  public double[] spreadsMs(Target t, List<String> landmarkIds) {
    double[] out = new double[landmarkIds.size()];
    double[] ms = new double[windows.window()];
    for (int i = 0; i < out.length; i++) {
      Integer l = landmarkSlots.get(landmarkIds.get(i));
      int n = 0;
      if (l != null) {
        windows.copyWindow(t.slot, l, scratch);
        for (int v : scratch) if (v > 0) ms[n++] = v / 1000.0;
      }
      out[i] = dev.reed.coordinates.integrity.LandmarkResiduals.spread(ms, n);
    }
    return out;
  }

  /**
   * The newest round's RTT in ms towards the given landmarks (each pair's own newest round), NaN
   * where it was lost or there is none. The lying-landmark check's step signal compares it with the
   * window minimum.
   */
  public double[] newestMs(Target t, List<String> landmarkIds) {
    double[] out = new double[landmarkIds.size()];
    for (int i = 0; i < out.length; i++) {
      Integer l = landmarkSlots.get(landmarkIds.get(i));
      int v = RttWindows.EMPTY;
      if (l != null) v = windows.copyWindow(t.slot, l, scratch)[windows.window() - 1];
      out[i] = v > 0 ? v / 1000.0 : Double.NaN;
    }
    return out;
  }

  /**
   * Stability from the windows (MUSST report): median and jitter of the best landmark's window
   * (the one with the lowest minimum), loss over every landmark's window.
   */
  public Stability stability(Target t) {
    int best = -1;
    int bestMin = Integer.MAX_VALUE;
    long lost = 0;
    long answered = 0;
    for (int l : landmarkSlots.values()) {
      windows.copyWindow(t.slot, l, scratch);
      for (int v : scratch) {
        if (v == RttWindows.LOSS) lost++;
        else if (v > 0) answered++;
      }
      int m = windows.minimumUs(t.slot, l);
      if (m > 0 && m < bestMin) {
        bestMin = m;
        best = l;
      }
    }
    Stability.Builder b = Stability.newBuilder();
    if (lost + answered > 0) b.setLossFraction((double) lost / (lost + answered));
    if (best < 0) return b.build();
    windows.copyWindow(t.slot, best, scratch);
    int n = 0;
    int rounds = 0;
    int diffs = 0;
    int prev = 0;
    for (int v : scratch) {
      if (v != RttWindows.EMPTY) rounds++;
      if (v > 0) {
        if (prev > 0) scratch2[diffs++] = Math.abs(v - prev);
        prev = v;
        scratch[n++] = v;
      }
    }
    b.setRounds(rounds).setMedianRttUs(median(scratch, n));
    if (diffs > 0) b.setJitterUs(median(scratch2, diffs));
    return b.build();
  }

  private static int median(int[] values, int n) {
    int[] copy = Arrays.copyOf(values, n);
    Arrays.sort(copy);
    return n % 2 == 1 ? copy[n / 2] : (int) (((long) copy[n / 2 - 1] + copy[n / 2]) / 2);
  }
}
