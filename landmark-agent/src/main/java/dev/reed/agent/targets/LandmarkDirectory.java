package dev.reed.agent.targets;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.Landmark;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The other landmarks, from their announcements on {@code reed.landmarks}: the peers whose
 * beacons this agent probes for the landmark mesh (paper section 5.1.1). An announcement older
 * than three of its own round intervals (at least {@link #MIN_STALE}) is a landmark that has
 * gone away; it is not probed. When the broker cannot be read, the last list is used.
 *
 * <p>Not thread-safe: the round thread owns it.
 */
public final class LandmarkDirectory {
  private static final Logger log = LoggerFactory.getLogger(LandmarkDirectory.class);
  /** Announcements are never considered stale sooner than this. */
  public static final Duration MIN_STALE = Duration.ofMinutes(15);

  private final String selfId;
  private final CompactedTopicReader reader;
  private final Clock clock;
  private List<Landmark> last = List.of();
  private long selfRound;

  /**
   * @param peers live peers, excluding this agent
   * @param selfRound round of this agent's own latest announcement on the topic (0 if none)
   */
  public record View(List<Landmark> peers, long selfRound) {}

  public LandmarkDirectory(String selfId, CompactedTopicReader reader, Clock clock) {
    this.selfId = selfId;
    this.reader = reader;
    this.clock = clock;
  }

  /** Reads the topic; on failure returns what was read last time. */
  public View read() {
    try {
      Map<String, byte[]> records = reader.readAll(Topic.LANDMARKS.name());
      List<Landmark> fresh = new ArrayList<>();
      Instant now = clock.instant();
      int invalid = 0;
      for (var e : records.entrySet()) {
        try {
          Landmark l = Landmark.parseFrom(e.getValue());
          if (l.getLandmarkId().equals(selfId)) {
            selfRound = Math.max(selfRound, l.getRound());
            continue;
          }
          if (!l.hasBeacon()) continue;
          Endpoints.toSocketAddress(l.getBeacon());
          Duration stale = Duration.ofMillis(l.getRoundIntervalMs()).multipliedBy(3);
          if (stale.compareTo(MIN_STALE) < 0) stale = MIN_STALE;
          Instant announced = Instant.ofEpochSecond(l.getAnnounceTime().getSeconds(), l.getAnnounceTime().getNanos());
          if (announced.plus(stale).isBefore(now)) continue;
          fresh.add(l);
        } catch (InvalidProtocolBufferException | IllegalArgumentException ex) {
          invalid++;
        }
      }
      if (invalid > 0) log.warn("{}: skipped {} unusable landmark records", Topic.LANDMARKS.name(), invalid);
      last = List.copyOf(fresh);
    } catch (KafkaException e) {
      log.warn("cannot read {} ({}); probing the {} peers read last time", Topic.LANDMARKS.name(), e.toString(), last.size());
    }
    return new View(last, selfRound);
  }
}
