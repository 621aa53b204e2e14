package dev.reed.coordinator.index.read;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * This replica's small numbers for landmark ids, the {@code RankedServer.landmark_refs} of the
 * compact landmark RTTs: a landmark keeps its number for the replica's lifetime and numbers are
 * only ever added, so a template built earlier never refers to a number a later table lacks. The
 * page's table comes from the same replica as its templates, so replicas need not agree.
 */
public final class LandmarkNumbers {
  private final Map<String, Integer> byId = new HashMap<>();
  private final List<String> ids = new ArrayList<>();

  /** The landmark's number, assigning the next one on first sight. */
  public synchronized int number(String landmarkId) {
    Integer n = byId.get(landmarkId);
    if (n != null) return n;
    ids.add(landmarkId);
    byId.put(landmarkId, ids.size() - 1);
    return ids.size() - 1;
  }

  /** Every id numbered so far, {@code table().get(n)} the id of number n. */
  public synchronized List<String> table() {
    return List.copyOf(ids);
  }
}
