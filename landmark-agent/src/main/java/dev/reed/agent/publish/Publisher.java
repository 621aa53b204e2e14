package dev.reed.agent.publish;

import dev.reed.agent.spool.Spool;
import dev.reed.agent.spool.SpoolEntry;
import dev.reed.agent.spool.SpooledRecord;
import dev.reed.runtime.KafkaClients;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains the {@link Spool} into Kafka, oldest batch first, one batch at a time: a batch leaves the
 * spool only when the broker acknowledged every record of it (acks=all). This keeps the order of
 * the rounds on every partition and makes the spool the single path for every record, exercised
 * all the time rather than only during outages.
 *
 * <p>Exactly once, in two layers:
 *
 * <ol>
 *   <li>The producer is idempotent ({@code enable.idempotence}, acks=all): while the broker is
 *       away for less than the delivery timeout the producer retries with the same sequence
 *       numbers and the broker drops duplicates, even across a broker restart.
 *   <li>A batch that fails (delivery timeout, broker gone longer) stays at the head of the spool
 *       and is marked uncertain. Before it is sent again, {@link ReadBack} reads its partitions
 *       back from its timestamp and the records already there are skipped. The same holds for the
 *       head batch after an agent restart (it may have been acknowledged just before the crash).
 * </ol>
 *
 * Every record carries its identity in the {@value #ID_HEADER} header
 * ({@code landmark/round/kind/key}), which is also what consumers may dedupe on as a last line of
 * defence. The partition is fixed by the key with Kafka's own hash (murmur2), so a replay lands on
 * the partition the first attempt used.
 */
public final class Publisher implements AutoCloseable {
  /** Header carrying a record's identity. */
  public static final String ID_HEADER = "reed-record-id";

  private static final Logger log = LoggerFactory.getLogger(Publisher.class);

  private final Spool spool;
  private final KafkaClients kafka;
  private final String clientId;
  private final Duration deliveryTimeout;
  private final ReadBack readBack;
  private final Timer latency;
  private final Counter failures;
  private final Counter skippedOnReplay;
  private final Counter rejected;
  private final MeterRegistry registry;
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final Map<String, Integer> partitionCounts = new HashMap<>();
  private final Thread thread;
  private volatile boolean reachable = true;
  private volatile long acknowledgedRecords;
  private Producer<byte[], byte[]> producer;
  private boolean uncertain;
  private final Object sleeper = new Object();

  /**
   * @param deliveryTimeout how long the producer retries one batch before it counts as failed
   *     (Kafka {@code delivery.timeout.ms}); outages shorter than this never touch the read-back
   */
  public Publisher(Spool spool, KafkaClients kafka, String clientId, Duration deliveryTimeout, MeterRegistry registry) {
    this.spool = spool;
    this.kafka = kafka;
    this.clientId = clientId;
    this.deliveryTimeout = deliveryTimeout;
    this.registry = registry;
    this.readBack = new ReadBack(kafka, deliveryTimeout.plusSeconds(5));
    this.latency = Timer.builder("reed.agent.publish.latency")
        .description("time from sending a batch to the broker's acknowledgement of all its records")
        .publishPercentileHistogram()
        .register(registry);
    this.failures = Counter.builder("reed.agent.publish.failures")
        .description("batch send attempts that failed (broker unreachable, timeout); the batch stays spooled")
        .register(registry);
    this.rejected = Counter.builder("reed.agent.publish.rejected")
        .description("records the broker refused as such (too large, invalid); logged and dropped")
        .register(registry);
    this.skippedOnReplay = Counter.builder("reed.agent.publish.replay.skipped")
        .description("records found already on the broker during a replay and therefore not sent again")
        .register(registry);
    // the head batch may have been sent just before a crash: read back before resending it
    this.uncertain = !spool.isEmpty();
    this.thread = Thread.ofPlatform().name("reed-publisher").daemon().unstarted(this::run);
  }

  public Publisher start() {
    thread.start();
    return this;
  }

  /** False while batches fail to reach the broker. */
  public boolean reachable() {
    return reachable;
  }

  /** Records acknowledged by the broker since start. */
  public long acknowledgedRecords() {
    return acknowledgedRecords;
  }

  /**
   * Waits up to {@code drain} for the spool to empty, then stops; whatever is left stays in the
   * spool for the next start.
   */
  @Override
  public void close() {
    close(Duration.ZERO);
  }

  public void close(Duration drain) {
    try {
      if (!drain.isZero()) spool.awaitEmpty(drain);
      stopping.set(true);
      synchronized (sleeper) {
        sleeper.notifyAll();
      }
      thread.join(deliveryTimeout.plusSeconds(10).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) log.warn("publisher thread did not stop in time");
  }

  private void run() {
    long backoffMs = 250;
    try {
      while (!stopping.get()) {
        SpoolEntry entry = spool.awaitHead(Duration.ofMillis(200));
        if (entry == null) continue;
        Exception failure = attempt(entry);
        if (failure == null) {
          spool.acknowledge(entry);
          uncertain = false;
          backoffMs = 250;
          if (!reachable) log.info("Kafka at {} reachable again; replaying the spool", kafka.bootstrap());
          reachable = true;
        } else {
          failures.increment();
          uncertain = true;
          if (reachable) {
            log.warn("Kafka at {} unreachable ({}); batches stay in the spool until it is back", kafka.bootstrap(), failure.toString());
          }
          reachable = false;
          closeProducer();
          synchronized (sleeper) {
            if (!stopping.get()) sleeper.wait(backoffMs);
          }
          backoffMs = Math.min(backoffMs * 2, 5_000);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      log.error("publisher stopped by an unexpected error; spooled batches stay on disk", e);
    } finally {
      closeProducer();
    }
  }

  /** Sends one batch and waits for every acknowledgement; returns the failure or null. */
  private Exception attempt(SpoolEntry entry) {
    try {
      if (producer == null) producer = newProducer();
      List<SpooledRecord> toSend = entry.records();
      if (uncertain) {
        Set<String> present = readBack.present(toSend, this::partitionOf);
        if (!present.isEmpty()) {
          toSend = toSend.stream().filter(r -> !present.contains(r.id())).toList();
          skippedOnReplay.increment(present.size());
          log.info("replay: {} of {} records of the head batch were already on the broker; sending the other {}",
              present.size(), entry.records().size(), toSend.size());
        }
      }
      long t0 = System.nanoTime();
      List<Future<RecordMetadata>> acks = new ArrayList<>(toSend.size());
      for (SpooledRecord r : toSend) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(new RecordHeader(ID_HEADER, r.id().getBytes(StandardCharsets.UTF_8)));
        Future<RecordMetadata> ack =
            producer.send(new ProducerRecord<>(r.topic(), partitionOf(r), r.timestampMillis(), r.key(), r.value(), headers));
        acks.add(ack);
        // Without metadata (broker gone) each send blocks max.block.ms and then returns a failed
        // future: stop at the first such failure instead of paying that for every record of the
        // batch; the whole batch stays in the spool and is replayed.
        if (ack.isDone() && ack.state() == Future.State.FAILED) break;
      }
      // no producer.flush(): it has no timeout, while each acknowledgement below is awaited with a
      // bound, so a broker that goes away can never stall the publisher thread
      Exception failure = null;
      Map<String, Integer> perTopic = new HashMap<>();
      // one deadline for the whole batch: waiting the full timeout on each of its records in turn
      // would hold a dead broker's batch for minutes before the outage is noticed and spooled
      long deadline = System.nanoTime() + deliveryTimeout.plusSeconds(5).toNanos();
      for (int i = 0; i < acks.size(); i++) {
        try {
          acks.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
          perTopic.merge(toSend.get(i).topic(), 1, Integer::sum);
        } catch (ExecutionException e) {
          if (rejectedByBroker(e.getCause())) {
            // the broker refuses this record itself (too large, invalid): resending cannot help and
            // would block every later batch; set it aside, loudly
            rejected.increment();
            log.error("broker rejected record {} on {} ({}); it is dropped", toSend.get(i).id(), toSend.get(i).topic(),
                e.getCause().toString());
            continue;
          }
          if (failure == null) failure = (Exception) e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
          if (failure == null) failure = e;
        }
      }
      if (failure != null) return failure;
      latency.record(System.nanoTime() - t0, TimeUnit.NANOSECONDS);
      perTopic.forEach((topic, n) -> Counter.builder("reed.agent.records.published")
          .description("records acknowledged by the broker, per topic")
          .tag("topic", topic).register(registry).increment(n));
      acknowledgedRecords += toSend.size();
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e;
    } catch (Exception e) { // KafkaException from send/partitionsFor/read-back: broker unreachable
      return e;
    }
  }

  private static boolean rejectedByBroker(Throwable t) {
    return t instanceof org.apache.kafka.common.errors.RecordTooLargeException
        || t instanceof org.apache.kafka.common.InvalidRecordException;
  }

  /** Kafka's default partitioner for keyed records, with the partition count cached per producer. */
  private int partitionOf(SpooledRecord r) {
    int n = partitionCounts.computeIfAbsent(r.topic(), t -> {
      var parts = producerForMetadata().partitionsFor(t);
      if (parts == null || parts.isEmpty()) throw new org.apache.kafka.common.KafkaException("topic " + t + " has no partitions");
      return parts.size();
    });
    return Utils.toPositive(Utils.murmur2(r.key())) % n;
  }

  private Producer<byte[], byte[]> producerForMetadata() {
    if (producer == null) producer = newProducer();
    return producer;
  }

  private Producer<byte[], byte[]> newProducer() {
    Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
    p.put(ProducerConfig.RETRIES_CONFIG, Integer.MAX_VALUE);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip");
    int delivery = (int) deliveryTimeout.toMillis();
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, delivery);
    p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, Math.min(30_000, delivery - 10));
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, delivery);
    p.put(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1_000);
    return kafka.producer(clientId, p);
  }

  private void closeProducer() {
    if (producer != null) {
      try {
        producer.close(Duration.ofSeconds(2));
      } catch (RuntimeException e) {
        log.debug("closing producer: {}", e.toString());
      }
    }
    producer = null;
    partitionCounts.clear();
  }
}
