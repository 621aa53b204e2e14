package dev.reed.agent.targets;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.reed.proto.Endpoints;
import dev.reed.proto.Topic;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.Target;
import dev.reed.runtime.DenyList;
import dev.reed.runtime.WatchedFile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The targets of one round: the operator's static list plus the {@code reed.targets} topic
 * (written by the coordinator's catalog), deduplicated by endpoint. When the broker cannot be read
 * the round probes the last list it did read, so an outage never stops measuring. Records that do
 * not decode or name no usable endpoint/protocol are skipped, counted and reported. Targets on the
 * operator's deny list ({@code --deny}, re-read before every round) are dropped from both, so an
 * agent stops probing a server at once, without waiting for the coordinator's catalog.
 *
 * <p>Not thread-safe: the round thread owns it.
 */
public final class RoundTargets {
  private static final Logger log = LoggerFactory.getLogger(RoundTargets.class);

  private record Decoded(byte[] bytes, Target target) {}

  /** A round's targets and where they came from. */
  public record Snapshot(List<Target> targets, int fromTopic, int invalid, int denied, boolean topicRead) {}

  private final List<Target> staticTargets;
  private final CompactedTopicReader reader;
  private final WatchedFile<DenyList> deny;
  private List<Target> lastFromTopic = List.of();
  /** The last reading's valid records by key: their bytes and what they decoded to. */
  private Map<String, Decoded> lastDecoded = Map.of();
  private long invalidTotal;

  /**
   * @param reader null to use only the static list
   * @param deny null to deny nothing
   */
  public RoundTargets(List<Target> staticTargets, CompactedTopicReader reader, WatchedFile<DenyList> deny) {
    this.staticTargets = List.copyOf(staticTargets);
    this.reader = reader;
    this.deny = deny;
  }

  public Snapshot current() {
    int invalid = 0;
    boolean read = false;
    if (reader != null) {
      try {
        Parsed p = parse(reader.readAll(Topic.TARGETS.name()));
        invalid = p.invalid().size();
        if (invalid > 0) {
          invalidTotal += invalid;
          log.warn("{}: skipped {} unusable target records, e.g. {}", Topic.TARGETS.name(), invalid,
              p.invalid().subList(0, Math.min(3, invalid)));
        }
        lastFromTopic = p.targets();
        read = true;
      } catch (KafkaException e) {
        log.warn("cannot read {} ({}); probing the {} targets read last time", Topic.TARGETS.name(), e.toString(),
            lastFromTopic.size());
      }
    }
    DenyList denied = denyList();
    Map<String, Target> merged = new LinkedHashMap<>();
    for (Target t : staticTargets) merged.putIfAbsent(Endpoints.key(t.getEndpoint()), t);
    for (Target t : lastFromTopic) merged.putIfAbsent(Endpoints.key(t.getEndpoint()), t);
    int before = merged.size();
    merged.values().removeIf(t -> denied.denies(t.getEndpoint()));
    return new Snapshot(List.copyOf(merged.values()), lastFromTopic.size(), invalid, before - merged.size(), read);
  }

  /** The usable targets of one reading of the topic, and what was wrong with the others. */
  record Parsed(List<Target> targets, List<String> invalid) {}

  /**
   * Decodes and checks the topic's records. A record whose bytes are those of the last reading
   * gives the target decoded then, not a new copy: a catalog of 20,000 servers is the same from
   * round to round, and a fresh copy per round made every round's targets live long enough to be
   * tenured (30 agents in the demo's emulation JVM: ~200 MB a round).
   */
  Parsed parse(Map<String, byte[]> records) {
    List<Target> fresh = new ArrayList<>(records.size());
    List<String> bad = new ArrayList<>();
    Map<String, Decoded> decoded = new HashMap<>(records.size() * 2);
    for (var e : records.entrySet()) {
      Decoded before = lastDecoded.get(e.getKey());
      if (before != null && Arrays.equals(before.bytes(), e.getValue())) {
        fresh.add(before.target());
        decoded.put(e.getKey(), before);
        continue;
      }
      try {
        Target t = Target.parseFrom(e.getValue());
        Endpoints.validate(t.getEndpoint());
        Endpoints.toSocketAddress(t.getEndpoint());
        if (t.getProtocol() != GameProtocol.GAME_PROTOCOL_A2S && t.getProtocol() != GameProtocol.GAME_PROTOCOL_QUAKE3) {
          throw new IllegalArgumentException("unsupported protocol " + t.getProtocol());
        }
        fresh.add(t);
        decoded.put(e.getKey(), new Decoded(e.getValue(), t));
      } catch (InvalidProtocolBufferException | IllegalArgumentException ex) {
        bad.add(e.getKey() + " (" + ex.getMessage() + ")");
      }
    }
    lastDecoded = decoded;
    return new Parsed(List.copyOf(fresh), bad);
  }

  /** The deny list as of now: re-read if the file changed. */
  private DenyList denyList() {
    if (deny == null) return DenyList.NONE;
    WatchedFile.Refresh r = deny.refresh();
    if (r.message() != null) {
      if (r.failed()) log.warn(r.message());
      else log.info(r.message());
    }
    return deny.current();
  }

  /** Unusable target records seen since start. */
  public long invalidTotal() {
    return invalidTotal;
  }
}
