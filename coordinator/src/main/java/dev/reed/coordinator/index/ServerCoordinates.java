package dev.reed.coordinator.index;

import dev.reed.proto.v1.ServerCoordinate;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The servers' coordinates as the feed read them, kept without their landmark_rtts: each read adds
 * them back from the server's {@link RankedTemplate}, which holds the same RTTs as ~4 bytes a
 * landmark. Parsed, the {@code LandmarkRtt} objects were the largest item of a replica's heap (~1.3
 * KB a server at 30 landmarks, docs/research/scale.md); the callers that read every server and
 * need no RTTs use {@link #withoutLandmarkRtts} and pay nothing for them.
 *
 * <p>Immutable, like the state that holds it.
 */
final class ServerCoordinates extends AbstractMap<String, ServerCoordinate> {
  private final Map<String, ServerCoordinate> stripped;
  private final Map<String, RankedTemplate> ranked;
  private final List<String> landmarkIds;

  /**
   * @param stripped coordinates without landmark_rtts, by server key
   * @param ranked the same servers' templates, whose compact RTTs are the landmark_rtts
   * @param landmarkIds the table of the templates' landmark numbers
   */
  ServerCoordinates(Map<String, ServerCoordinate> stripped, Map<String, RankedTemplate> ranked, List<String> landmarkIds) {
    this.stripped = stripped;
    this.ranked = ranked;
    this.landmarkIds = landmarkIds;
  }

  Map<String, ServerCoordinate> withoutLandmarkRtts() {
    return stripped;
  }

  private ServerCoordinate whole(String key, ServerCoordinate c) {
    RankedTemplate t = ranked.get(key);
    return t == null || t.compactRtts().length == 0 ? c : c.toBuilder().addAllLandmarkRtts(t.landmarkRtts(landmarkIds)).build();
  }

  @Override
  public ServerCoordinate get(Object key) {
    ServerCoordinate c = stripped.get(key);
    return c == null ? null : whole((String) key, c);
  }

  @Override
  public boolean containsKey(Object key) {
    return stripped.containsKey(key);
  }

  @Override
  public int size() {
    return stripped.size();
  }

  @Override
  public Set<String> keySet() {
    return stripped.keySet();
  }

  @Override
  public Set<Entry<String, ServerCoordinate>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, ServerCoordinate>> iterator() {
        Iterator<Entry<String, ServerCoordinate>> it = stripped.entrySet().iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Entry<String, ServerCoordinate> next() {
            Entry<String, ServerCoordinate> e = it.next();
            return Map.entry(e.getKey(), whole(e.getKey(), e.getValue()));
          }
        };
      }

      @Override
      public int size() {
        return stripped.size();
      }
    };
  }
}
