package dev.reed.coordinator.index;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.proto.v1.RankedServer;
import dev.reed.proto.v1.ServerCoordinate;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The servers' coordinates as the feed read them, rebuilt on each read from the server's {@link
 * RankedTemplate} (which holds the endpoint, protocol, server info, stability, fit, coordinate,
 * integrity and, as ~4 bytes a landmark, the landmark RTTs) and the few bytes a template lacks
 * (update time, round, placement: {@code rest}, a few bytes). Every replica holds every server,
 * and parsed coordinates with their {@code LandmarkRtt} objects were the largest item of a
 * replica's heap in a class histogram at 50,000 x 15 (docs/research/scale.md, finding 3). A read
 * costs a parse: callers that read every server often (the metrics) count from the templates.
 *
 * <p>Immutable, like the state that holds it.
 */
final class ServerCoordinates extends AbstractMap<String, ServerCoordinate> {
  private final Map<String, byte[]> rest;
  private final Map<String, RankedTemplate> ranked;
  private final List<String> landmarkIds;
  private final boolean withLandmarkRtts;

  /**
   * @param rest per server key, its ServerCoordinate's fields a template does not hold, encoded ({@link #rest})
   * @param ranked the same servers' templates
   * @param landmarkIds the table of the templates' landmark numbers
   */
  ServerCoordinates(Map<String, byte[]> rest, Map<String, RankedTemplate> ranked, List<String> landmarkIds) {
    this(rest, ranked, landmarkIds, true);
  }

  private ServerCoordinates(Map<String, byte[]> rest, Map<String, RankedTemplate> ranked, List<String> landmarkIds,
      boolean withLandmarkRtts) {
    this.rest = rest;
    this.ranked = ranked;
    this.landmarkIds = landmarkIds;
    this.withLandmarkRtts = withLandmarkRtts;
  }

  /** What of {@code c} a template of it does not hold. */
  static byte[] rest(ServerCoordinate c) {
    return c.toBuilder().clearEndpoint().clearProtocol().clearServerInfo().clearStability().clearFit().clearCoordinate()
        .clearIntegrity().clearLandmarkRtts().build().toByteArray();
  }

  /** The same coordinates without landmark_rtts, cheaper to read. */
  Map<String, ServerCoordinate> withoutLandmarkRtts() {
    return withLandmarkRtts ? new ServerCoordinates(rest, ranked, landmarkIds, false) : this;
  }

  private ServerCoordinate whole(String key, byte[] restBytes) {
    RankedTemplate t = ranked.get(key);
    try {
      ServerCoordinate.Builder b = ServerCoordinate.newBuilder().mergeFrom(restBytes);
      if (t == null) return b.build();
      RankedServer s = RankedServer.parseFrom(t.common());
      b.setProtocol(s.getProtocol());
      if (s.hasEndpoint()) b.setEndpoint(s.getEndpoint());
      if (s.hasServerInfo()) b.setServerInfo(s.getServerInfo());
      if (s.hasStability()) b.setStability(s.getStability());
      if (s.hasFit()) b.setFit(s.getFit());
      if (s.hasCoordinate()) b.setCoordinate(s.getCoordinate());
      if (s.hasIntegrity()) b.setIntegrity(s.getIntegrity());
      if (withLandmarkRtts && t.compactRtts().length > 0) b.addAllLandmarkRtts(t.landmarkRtts(landmarkIds));
      return b.build();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("the index's own bytes of " + key + " do not parse", e);
    }
  }

  @Override
  public ServerCoordinate get(Object key) {
    byte[] r = rest.get(key);
    return r == null ? null : whole((String) key, r);
  }

  @Override
  public boolean containsKey(Object key) {
    return rest.containsKey(key);
  }

  @Override
  public int size() {
    return rest.size();
  }

  @Override
  public Set<String> keySet() {
    return rest.keySet();
  }

  @Override
  public Set<Entry<String, ServerCoordinate>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<String, ServerCoordinate>> iterator() {
        Iterator<Entry<String, byte[]>> it = rest.entrySet().iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Entry<String, ServerCoordinate> next() {
            Entry<String, byte[]> e = it.next();
            return Map.entry(e.getKey(), whole(e.getKey(), e.getValue()));
          }
        };
      }

      @Override
      public int size() {
        return rest.size();
      }
    };
  }
}
