package dev.reed.coordinator.index.read;

import dev.reed.coordinator.index.CoordinateCodec;
import dev.reed.coordinates.Coordinate;
import dev.reed.coordinates.ranking.Ranked;
import dev.reed.coordinates.ranking.RankingIndex;
import dev.reed.proto.v1.Landmark;
import dev.reed.proto.v1.LandmarkCoordinate;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.Target;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * One immutable view of the coordinate space that queries are served from. The feed builds a new
 * one and swaps the reference, so a query sees either the old or the new state, never half of an
 * update.
 *
 * @param index ranking index over every server with a valid coordinate
 * @param servers latest coordinate per server key
 * @param ranked per server key, what a ranking returns about it but the predicted RTT
 * @param landmarks landmark coordinates of the current embedding epoch, by landmark id
 * @param landmarkAnchors the same landmarks as math coordinates, sorted by id (positioning anchors)
 * @param announcements latest announcement per landmark id (reed.landmarks)
 * @param targets the catalog: target per endpoint key (reed.targets)
 * @param landmarkEpoch embedding epoch of {@code landmarks}
 * @param builtAt when this state was built
 * @param dimensions the deployment's dimension count
 * @param heightModel coordinates carry a height
 * @param landmarkIds the compact landmark RTTs' table: {@code landmarkIds.get(n)} is the landmark
 *     of number n in {@code ranked}'s refs; holds every number a template refers to
 * @param quarantinedLandmarks landmarks of the current epoch the leader quarantined, by
 *     id: in none of the other maps' anchors or served beacons, listed by ListLandmarks with the flag
 * @param byPosition {@code ranked}'s template of the server at an index position ({@link
 *     Ranked#position}), null where a server has none: a page reads its templates by position
 *     instead of looking each up by key (that lookup's chain of cache misses was a third of a
 *     page's CPU); an array of them derived from {@code index} and {@code ranked} when null is
 *     passed, after checking that {@code landmarkIds} covers every template's refs ({@link #of}
 *     passes its {@link StateServers}'s, which checked that as it was built)
 */
public record ServingState(
    RankingIndex index,
    Map<String, ServerCoordinate> servers,
    Map<String, RankedTemplate> ranked,
    Map<String, LandmarkCoordinate> landmarks,
    List<Anchor> landmarkAnchors,
    Map<String, Landmark> announcements,
    Map<String, Target> targets,
    long landmarkEpoch,
    Instant builtAt,
    int dimensions,
    boolean heightModel,
    List<String> landmarkIds,
    Map<String, LandmarkCoordinate> quarantinedLandmarks,
    IntFunction<RankedTemplate> byPosition) {

  public ServingState {
    landmarkIds = List.copyOf(landmarkIds);
    if (byPosition == null) { // of(...) passes its table's, which checked the refs as it was built
      for (Map.Entry<String, RankedTemplate> e : ranked.entrySet()) {
        checkRefs(e.getKey(), e.getValue().maxRef(), landmarkIds.size());
      }
      RankedTemplate[] templates = new RankedTemplate[index.size()];
      for (int p = 0; p < templates.length; p++) templates[p] = ranked.get(index.entry(p).key());
      byPosition = p -> templates[p];
    }
  }

  /**
   * Refuses a template whose landmark refs a table of {@code landmarks} ids does not cover.
   *
   * @throws IllegalArgumentException naming the server
   */
  static void checkRefs(String key, int maxRef, int landmarks) {
    if (maxRef >= landmarks) {
      throw new IllegalArgumentException("template of " + key + " refers to landmark number " + maxRef
          + ", the table has " + landmarks);
    }
  }

  /**
   * The state of the index feed's servers: their coordinates rebuilt from their templates on read,
   * the templates read by position.
   *
   * @param landmarkIds the landmark table, taken after every template of {@code servers} was numbered
   */
  public static ServingState of(StateServers servers, List<String> landmarkIds, EpochLandmarks landmarks,
      Map<String, Landmark> announcements, Map<String, Target> targets, Instant builtAt, int dimensions,
      boolean heightModel) {
    RebuiltCoordinates coordinates = new RebuiltCoordinates(servers, landmarkIds);
    return new ServingState(servers.index(), coordinates, coordinates.templates(), landmarks.coordinates(),
        landmarks.anchors(), announcements, targets, landmarks.epoch(), builtAt, dimensions, heightModel, landmarkIds,
        landmarks.quarantined(), servers::template);
  }

  /** A state with its templates put in the index's order here. */
  public ServingState(RankingIndex index, Map<String, ServerCoordinate> servers, Map<String, RankedTemplate> ranked,
      Map<String, LandmarkCoordinate> landmarks, List<Anchor> landmarkAnchors, Map<String, Landmark> announcements,
      Map<String, Target> targets, long landmarkEpoch, Instant builtAt, int dimensions, boolean heightModel,
      List<String> landmarkIds, Map<String, LandmarkCoordinate> quarantinedLandmarks) {
    this(index, servers, ranked, landmarks, landmarkAnchors, announcements, targets, landmarkEpoch, builtAt, dimensions,
        heightModel, landmarkIds, quarantinedLandmarks, null);
  }

  /** The template of a server this state's index ranked; null when it has none. */
  public RankedTemplate template(Ranked r) {
    return r.position() >= 0 ? byPosition.apply(r.position()) : ranked.get(r.server().key());
  }

  /**
   * The servers' coordinates without their landmark_rtts, for callers that need none: the feed's
   * {@link #servers} rebuild each coordinate from its template on read, and these skip the RTTs.
   */
  public Map<String, ServerCoordinate> coordinatesOnly() {
    return servers instanceof RebuiltCoordinates v ? v.withoutLandmarkRtts() : servers;
  }

  /**
   * A state without quarantined landmarks, its landmark table read off its templates and the
   * servers' landmark RTTs they were built from (tests; the feed passes its numbering's table).
   */
  public ServingState(RankingIndex index, Map<String, ServerCoordinate> servers, Map<String, RankedTemplate> ranked,
      Map<String, LandmarkCoordinate> landmarks, List<Anchor> landmarkAnchors, Map<String, Landmark> announcements,
      Map<String, Target> targets, long landmarkEpoch, Instant builtAt, int dimensions, boolean heightModel) {
    this(index, servers, ranked, landmarks, landmarkAnchors, announcements, targets, landmarkEpoch, builtAt, dimensions,
        heightModel, tableOf(servers, ranked), Map.of());
  }

  private static List<String> tableOf(Map<String, ServerCoordinate> servers, Map<String, RankedTemplate> ranked) {
    List<String> ids = new java.util.ArrayList<>();
    ranked.forEach((key, t) -> {
      int[] refs = t.refs();
      ServerCoordinate c = servers.get(key);
      if (c == null || c.getLandmarkRttsCount() != refs.length) {
        if (refs.length > 0) throw new IllegalArgumentException("template of " + key + " without the coordinate it was built from");
        return;
      }
      for (int i = 0; i < refs.length; i++) {
        while (ids.size() <= refs[i]) ids.add("");
        ids.set(refs[i], c.getLandmarkRtts(i).getLandmarkId());
      }
    });
    return ids;
  }

  /** A landmark as a positioning anchor. */
  public record Anchor(String landmarkId, Coordinate coordinate) {}

  /**
   * The landmarks a state serves: of every landmark coordinate read, those of the newest embedding
   * epoch (an older epoch's coordinates live in a different frame), with their anchors sorted by id;
   * quarantined ones apart, never anchors.
   */
  public record EpochLandmarks(long epoch, Map<String, LandmarkCoordinate> coordinates, List<Anchor> anchors,
      Map<String, LandmarkCoordinate> quarantined) {
    public static EpochLandmarks newest(Map<String, LandmarkCoordinate> all, int dimensions) {
      long epoch = all.values().stream().mapToLong(LandmarkCoordinate::getEpoch).max().orElse(0);
      Map<String, LandmarkCoordinate> current = new HashMap<>();
      Map<String, LandmarkCoordinate> quarantined = new HashMap<>();
      all.forEach((id, c) -> {
        if (c.getEpoch() == epoch) (c.getQuarantined() ? quarantined : current).put(id, c);
      });
      List<Anchor> anchors = current.values().stream()
          .sorted(Comparator.comparing(LandmarkCoordinate::getLandmarkId))
          .map(c -> new Anchor(c.getLandmarkId(), CoordinateCodec.fromProto(c.getCoordinate(), dimensions, "landmark")))
          .toList();
      return new EpochLandmarks(epoch, Map.copyOf(current), anchors, Map.copyOf(quarantined));
    }
  }

  public static ServingState empty(int dimensions, boolean heightModel, Instant now) {
    return new ServingState(RankingIndex.of(List.of()), Map.of(), Map.of(), Map.of(), List.of(), Map.of(), Map.of(), 0,
        now, dimensions, heightModel);
  }

}
