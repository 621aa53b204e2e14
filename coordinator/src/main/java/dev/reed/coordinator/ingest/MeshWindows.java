package dev.reed.coordinator.ingest;

import dev.reed.proto.v1.MeshSample;
import dev.reed.proto.v1.ProbeStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Landmark-to-landmark windows for the GNP landmark embedding (Ng &amp; Zhang 2002). Each mesh
 * sample is already the minimum of back-to-back probes in one round (REED section 5.1.1); the
 * window keeps the last rounds and the matrix entry is the minimum over both directions' windows.
 *
 * <p>Not thread-safe: owned by the ingest loop.
 */
public final class MeshWindows {
  private final RttWindows windows;
  private final Map<String, Integer> slots = new HashMap<>();
  private final List<String> ids = new ArrayList<>();

  public MeshWindows(int window) {
    this.windows = new RttWindows(window, 16, 16);
  }

  private int slot(String id) {
    return slots.computeIfAbsent(id, k -> {
      ids.add(k);
      return ids.size() - 1;
    });
  }

  /** Adds a validated mesh sample. */
  public boolean add(MeshSample s) {
    int rtt = s.getStatus() == ProbeStatus.PROBE_STATUS_OK ? s.getRttUs() : RttWindows.LOSS;
    return windows.record(slot(s.getLandmarkId()), slot(s.getPeerLandmarkId()), s.getRound(), rtt);
  }

  /** The mesh restricted to landmarks with RTTs to at least {@code minPeers} others. */
  public Mesh matrix(int minPeers) {
    List<String> candidates = new ArrayList<>(ids);
    while (true) {
      int n = candidates.size();
      double[][] d = new double[n][n];
      List<String> keep = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int peers = 0;
        for (int j = 0; j < n; j++) {
          d[i][j] = i == j ? 0 : rttMs(candidates.get(i), candidates.get(j));
          if (i != j && !Double.isNaN(d[i][j])) peers++;
        }
        if (peers >= minPeers) keep.add(candidates.get(i));
      }
      if (keep.size() == n) return new Mesh(List.copyOf(candidates), d);
      candidates = keep;
    }
  }

  private double rttMs(String a, String b) {
    int ia = slots.get(a);
    int ib = slots.get(b);
    int ab = windows.minimumUs(ia, ib);
    int ba = windows.minimumUs(ib, ia);
    int m = ab == 0 ? ba : ba == 0 ? ab : Math.min(ab, ba);
    return m == 0 ? Double.NaN : m / 1000.0;
  }

  /** Landmark ids and their symmetric RTT matrix in ms (NaN = no sample). */
  public record Mesh(List<String> landmarkIds, double[][] rttMs) {}
}
