package dev.reed.cli.scale;

import java.util.List;

/**
 * What one step measured. Times in seconds (-1 = did not happen within its timeout), bytes in bytes.
 *
 * @param samplesPerRound T x L
 * @param published samples the feed published in the steady phase
 * @param counted samples the replicas counted as ingested (reed_ingest_samples_total, summed)
 * @param deadLetters records the replicas refused
 * @param allServed every replica's index, the serving replicas' too, held every target at the end of the steady phase
 * @param serving the serving replicas ({@code --serve-only}), empty for none
 * @param windowBytes the replicas' window arrays (reed_window_bytes), summed
 * @param queries GetOrderedServers latencies over the steady phase after the first served round
 * @param failover the kill and restart, null when not run
 * @param load /proc/loadavg at the end
 * @param steadyEnd seconds since the start at which the steady phase ended (before any kill)
 * @param sampleLogBytes reed.samples' log segments on the embedded broker's disk then; -1 with --bootstrap
 */
record ScaleResult(ScaleSettings settings, long samplesPerRound, List<RoundFigures> rounds, long published, long counted,
    long deadLetters, boolean allServed, List<ReplicaFigures> replicas, List<ServingFigures> serving, long windowBytes, QueryLoad.Window queries,
    Failover failover, List<Tick> ticks, String load, double steadyEnd, long sampleLogBytes) {

  /** @param served seconds from the round's last sample until every target was positioned and served */
  record RoundFigures(int round, long samples, double publishSeconds, double served, QueryLoad.Window queries) {}

  /** Memory of one replica at the end of the steady phase; heap after a full GC. */
  record ReplicaFigures(int index, boolean leader, int windowTargets, long windowBytes, long heapAfterGc,
      long heapAtStart, long rss) {}

  /** A serving replica at the end of the steady phase: servers in its index, heap after a full GC, RSS. */
  record ServingFigures(int index, int indexServers, long heapAfterGc, long rss) {}

  /** @param shareServed seconds from SIGKILL until its partitions were positioned by the others (or by itself again) */
  record Failover(int replica, int targets, double shareServed, double restartToServing) {}

  /** One observation every half second. */
  record Tick(double t, long lag, int assignedPartitions, List<ReplicaTick> replicas) {}

  record ReplicaTick(int index, boolean alive, double ingested, double samplesPerSecond, double heapUsed, long rss,
      double indexServers, double windowTargets, double rounds) {}

  long pairs() {
    return samplesPerRound;
  }

  /** Every sample counted exactly once over the steady phase (no kill before it). */
  boolean countedOnce() {
    return counted == published && deadLetters == 0;
  }

  /** Window bytes per (landmark, target) pair. */
  double windowBytesPerPair() {
    return (double) windowBytes / pairs();
  }

  /**
   * A replica's heap growth from start to the end of the steady phase, after full GCs, per pair of
   * the whole deployment: its windows (its share of pairs) plus the full index every replica holds.
   */
  double heapBytesPerPair(ReplicaFigures r) {
    return (double) (r.heapAfterGc() - r.heapAtStart()) / pairs();
  }

  /** Sustained ingest: samples counted from the first tick with any to the first tick with all of the steady phase, per second. */
  double ingestRate() {
    double first = Double.NaN;
    double tFirst = 0;
    for (Tick t : ticks) {
      double sum = 0;
      boolean ok = true;
      for (ReplicaTick r : t.replicas()) {
        if (Double.isNaN(r.ingested())) ok = false;
        else sum += r.ingested();
      }
      if (!ok) continue;
      if (Double.isNaN(first) && sum > 0) {
        first = sum;
        tFirst = t.t();
      }
      if (!Double.isNaN(first) && sum >= published) {
        return t.t() > tFirst ? (sum - first) / (t.t() - tFirst) : Double.NaN;
      }
    }
    return Double.NaN;
  }

  /** The largest consumer lag seen in the steady phase (a kill's unowned partitions excluded). */
  long maxLag() {
    return ticks.stream().filter(t -> t.t() <= steadyEnd).mapToLong(Tick::lag).max().orElse(-1);
  }
}
