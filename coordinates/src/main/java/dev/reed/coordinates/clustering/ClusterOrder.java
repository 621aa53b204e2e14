package dev.reed.coordinates.clustering;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The order of Armitage's client-side clustering (package comment for the papers), event-driven
 * like {@link dev.reed.coordinates.discovery.ProbeOrder}: the driver asks {@link #next()} for the
 * server to probe and reports each outcome ({@link #replied}, {@link #noReply}).
 *
 * <ol>
 *   <li>Sampling: the first {@link ClusterConfig#probesPerCluster()} servers of every cluster, in
 *       the list's order, are handed out as {@link Kind#SAMPLE}s (the method's calibration; they
 *       cost probes). While samples are unanswered and none is left to hand out, {@link #next()}
 *       answers null: the ranking needs them all.
 *   <li>Ranking: clusters in ascending {@link ClusterConfig#statistic()} of their answered samples;
 *       ties, and clusters with no answered sample (after all others), keep the order in which the
 *       list first named them.
 *   <li>Probing: cluster after cluster, first its samples again as {@link Kind#MEASURED} (ascending
 *       RTT, silent ones last; already probed, do not probe again), then its other servers in list
 *       order as {@link Kind#RANKED}.
 * </ol>
 *
 * <p>Servers without a label (the database does not know the address) form one cluster of their
 * own, ranked like any other: a cluster per unlabelled server would cost a sample each, and with a
 * database that knows few of the addresses that is traditional discovery with extra steps.
 *
 * <p>The prediction a pick carries is no RTT estimate but a stand-in for the auto-stop policies:
 * a sample's own RTT (NaN before or without a reply), the cluster's statistic for the others
 * (NaN when none of its samples replied).
 *
 * <p>Not thread-safe: one instance per discovery.
 */
public final class ClusterOrder {

  /**
   * A listed server.
   *
   * @param key unique per server (an address key, a node index)
   * @param label its cluster (a country code, {@link #asLabel(long)}); null or blank = unknown
   */
  public record Server(String key, String label) {
    public Server {
      Objects.requireNonNull(key, "key");
      label = label == null || label.isBlank() ? null : label.strip();
    }
  }

  /** What a pick asks of the driver. */
  public enum Kind {
    /** Probe it: one of its cluster's samples. */
    SAMPLE,
    /** A sample handed out again in its cluster's turn: already probed, do not probe again. */
    MEASURED,
    /** Probe it, in its cluster's turn. */
    RANKED
  }

  /**
   * A server handed out.
   *
   * @param cluster its cluster's label, null for the unknown cluster
   * @param predictedMs the stand-in prediction (class comment), NaN when none
   */
  public record Pick(String key, String cluster, Kind kind, double predictedMs) {}

  private static final class Cluster {
    final String label;
    final List<Integer> members = new ArrayList<>();
    double rank = Double.NaN;

    Cluster(String label) {
      this.label = label;
    }
  }

  private final ClusterConfig config;
  private final String[] keys;
  private final Cluster[] clusterOf;
  private final List<Cluster> clusters;
  private final Map<String, Integer> index = new HashMap<>();
  private final boolean[] sample;
  private final boolean[] answered;
  private final double[] measured;
  private final int[] samples;
  private int nextSample;
  private int outstanding;
  private List<Integer> sequence; // phase 3, built at ranking
  private int cursor;
  private final List<String> ranking = new ArrayList<>();

  /**
   * @param servers the list, in the order the master server gave it
   * @throws IllegalArgumentException a key listed twice
   */
  public ClusterOrder(ClusterConfig config, List<Server> servers) {
    this.config = Objects.requireNonNull(config, "config");
    int n = servers.size();
    keys = new String[n];
    clusterOf = new Cluster[n];
    sample = new boolean[n];
    answered = new boolean[n];
    measured = new double[n];
    Arrays.fill(measured, Double.NaN);
    Map<String, Cluster> byLabel = new LinkedHashMap<>();
    Cluster unknown = null;
    List<Cluster> inOrder = new ArrayList<>();
    List<Integer> sampleList = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Server s = servers.get(i);
      if (index.putIfAbsent(s.key(), i) != null) {
        throw new IllegalArgumentException("server " + s.key() + " is listed twice");
      }
      keys[i] = s.key();
      Cluster c;
      if (s.label() == null) {
        if (unknown == null) {
          unknown = new Cluster(null);
          inOrder.add(unknown);
        }
        c = unknown;
      } else {
        c = byLabel.computeIfAbsent(s.label(), Cluster::new);
        if (c.members.isEmpty()) {
          inOrder.add(c);
        }
      }
      clusterOf[i] = c;
      if (c.members.size() < config.probesPerCluster()) {
        sample[i] = true;
        sampleList.add(i);
      }
      c.members.add(i);
    }
    clusters = List.copyOf(inOrder);
    samples = sampleList.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The cluster label of an origin AS number, "AS" + number; null for 0 (unknown). */
  public static String asLabel(long asn) {
    if (asn < 0) {
      throw new IllegalArgumentException("AS numbers are >= 0: " + asn);
    }
    return asn == 0 ? null : "AS" + asn;
  }

  /** The cluster label of an ISO 3166 country code, upper case; null for null or blank (unknown). */
  public static String countryLabel(String countryCode) {
    return countryCode == null || countryCode.isBlank() ? null : countryCode.strip().toUpperCase(Locale.ROOT);
  }

  /** Clusters in the list (the unknown one included). */
  public int clusterCount() {
    return clusters.size();
  }

  /** Samples of all clusters: the probes the method makes before it orders anything. */
  public int sampleCount() {
    return samples.length;
  }

  /** Cluster labels in rank order (null for the unknown cluster); empty before the ranking. */
  public List<String> ranking() {
    return Collections.unmodifiableList(ranking);
  }

  /**
   * The next server, or null when none can be handed out now (samples still unanswered) or ever
   * ({@link #exhausted()}).
   */
  public Pick next() {
    if (nextSample < samples.length) {
      int i = samples[nextSample++];
      outstanding++;
      return new Pick(keys[i], clusterOf[i].label, Kind.SAMPLE, Double.NaN);
    }
    if (outstanding > 0) {
      return null;
    }
    if (sequence == null) {
      rank();
    }
    if (cursor >= sequence.size()) {
      return null;
    }
    int i = sequence.get(cursor++);
    Cluster c = clusterOf[i];
    return sample[i] ? new Pick(keys[i], c.label, Kind.MEASURED, measured[i]) : new Pick(keys[i], c.label, Kind.RANKED, c.rank);
  }

  /** True once {@link #next()} will hand out nothing more (the samples again included). */
  public boolean exhausted() {
    return nextSample == samples.length && outstanding == 0 && (sequence == null ? keys.length == 0 : cursor == sequence.size());
  }

  /**
   * The server of this key answered in {@code rttMs} (a key not listed, or reported twice, is
   * ignored).
   *
   * @throws IllegalArgumentException for a negative, infinite or NaN RTT
   */
  public void replied(String key, double rttMs) {
    if (!(rttMs >= 0) || Double.isInfinite(rttMs)) {
      throw new IllegalArgumentException("rttMs must be finite and >= 0: " + rttMs);
    }
    outcome(key, rttMs);
  }

  /** The server of this key did not answer (timeout, error). */
  public void noReply(String key) {
    outcome(key, Double.NaN);
  }

  private void outcome(String key, double rttMs) {
    Integer i = index.get(key);
    if (i == null || answered[i]) {
      return;
    }
    answered[i] = true;
    measured[i] = rttMs;
    if (sample[i] && sequence == null) {
      outstanding--;
    }
  }

  private void rank() {
    List<Integer> order = new ArrayList<>();
    for (int q = 0; q < clusters.size(); q++) {
      clusters.get(q).rank = statistic(clusters.get(q));
      order.add(q);
    }
    // stable: ties and unmeasured clusters keep the list's order
    order.sort(Comparator.comparingDouble(q -> Double.isNaN(clusters.get(q).rank) ? Double.POSITIVE_INFINITY : clusters.get(q).rank));
    sequence = new ArrayList<>(keys.length);
    for (int q : order) {
      Cluster c = clusters.get(q);
      ranking.add(c.label);
      List<Integer> own = new ArrayList<>();
      for (int i : c.members) {
        if (sample[i]) {
          own.add(i);
        }
      }
      own.sort(Comparator.comparingDouble(i -> Double.isNaN(measured[i]) ? Double.MAX_VALUE : measured[i]));
      sequence.addAll(own);
      for (int i : c.members) {
        if (!sample[i]) {
          sequence.add(i);
        }
      }
    }
  }

  private double statistic(Cluster c) {
    double[] v = c.members.stream().filter(i -> sample[i] && !Double.isNaN(measured[i])).mapToDouble(i -> measured[i]).sorted()
        .toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    return switch (config.statistic()) {
      case MIN -> v[0];
      case MEDIAN -> v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    };
  }
}
