package dev.reed.cli.scale;

import dev.reed.proto.Topic;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The coordinators' consumer group on reed.samples as an operator sees it with the AdminClient:
 * lag (end offsets minus committed offsets, summed over partitions; the coordinators commit every
 * 5 s, so it reads up to 5 s of samples high) and how many partitions the live members hold.
 */
final class GroupLag implements AutoCloseable {
  /**
   * @param lag records behind, summed; -1 unknown
   * @param assigned partitions held by members
   * @param assignment who holds what (member client ids and partitions, sorted), to see it settle
   */
  record State(long lag, int assigned, int members, int partitions, String assignment) {}

  private final Admin admin;
  private final String group;

  GroupLag(String bootstrap, String group) {
    this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        AdminClientConfig.CLIENT_ID_CONFIG, "reed-scale-lag"));
    this.group = group;
  }

  State read() {
    try {
      Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
          .partitionsToOffsetAndMetadata().get(5, TimeUnit.SECONDS);
      Map<TopicPartition, OffsetSpec> query = new HashMap<>();
      for (int p = 0; p < Topic.SAMPLES.partitions(); p++) {
        query.put(new TopicPartition(Topic.SAMPLES.name(), p), OffsetSpec.latest());
      }
      Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(query).all()
          .get(5, TimeUnit.SECONDS);
      long lag = 0;
      for (var e : ends.entrySet()) {
        OffsetAndMetadata c = committed.get(e.getKey());
        lag += e.getValue().offset() - (c == null ? 0 : c.offset());
      }
      ConsumerGroupDescription d = admin.describeConsumerGroups(Set.of(group)).all().get(5, TimeUnit.SECONDS).get(group);
      int assigned = 0;
      java.util.List<String> who = new java.util.ArrayList<>();
      for (MemberDescription m : d.members()) {
        java.util.List<Integer> ps = m.assignment().topicPartitions().stream()
            .filter(tp -> tp.topic().equals(Topic.SAMPLES.name())).map(TopicPartition::partition).sorted().toList();
        assigned += ps.size();
        who.add(m.consumerId() + "=" + ps);
      }
      java.util.Collections.sort(who);
      return new State(lag, assigned, d.members().size(), ends.size(), String.join(" ", who));
    } catch (ExecutionException | TimeoutException e) {
      return new State(-1, -1, -1, Topic.SAMPLES.partitions(), "");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new State(-1, -1, -1, Topic.SAMPLES.partitions(), "");
    }
  }

  @Override
  public void close() {
    admin.close();
  }
}
