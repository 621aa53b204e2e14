package dev.reed.agent.spool;

import java.util.Arrays;
import java.util.Objects;

/**
 * One Kafka record waiting in the spool: everything needed to send it again, byte for byte, after
 * a broker outage or an agent restart.
 *
 * @param topic Kafka topic name
 * @param timestampMillis record timestamp (CreateTime), fixed when the record is made so a replay
 *     carries the same timestamp and the read-back before a replay can start at it
 * @param id the record's identity ({@code landmark/round/kind/key}), sent as the
 *     {@code reed-record-id} header; unique per landmark
 * @param key record key bytes
 * @param value record value bytes (a serialized protobuf message)
 */
public record SpooledRecord(String topic, long timestampMillis, String id, byte[] key, byte[] value) {
  public SpooledRecord {
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SpooledRecord r
        && topic.equals(r.topic)
        && timestampMillis == r.timestampMillis
        && id.equals(r.id)
        && Arrays.equals(key, r.key)
        && Arrays.equals(value, r.value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(topic, timestampMillis, id, Arrays.hashCode(key), Arrays.hashCode(value));
  }

  @Override
  public String toString() {
    return "SpooledRecord[" + topic + " " + id + ", " + value.length + " bytes]";
  }
}
