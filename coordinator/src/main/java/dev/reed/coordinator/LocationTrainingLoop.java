package dev.reed.coordinator;

import dev.reed.coordinator.location.GeoTraining;
import dev.reed.coordinator.index.write.IndexFeed;
import dev.reed.coordinator.ingest.MeshWindows;
import dev.reed.coordinator.ingest.SampleIngest;
import java.time.Clock;
import java.time.Duration;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A serving replica's location model: it reads the landmark mesh ({@link SampleIngest#startMeshOnly})
 * and submits a training every round interval, on the mesh and the index it serves, as the round
 * loop does after each round on an ingesting replica. Without it a serving replica would answer
 * requests without a client coordinate, and fuse geography into rankings, differently from the
 * ingesting replicas beside it.
 */
final class LocationTrainingLoop implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LocationTrainingLoop.class);

  private final SampleIngest mesh;
  private final MeshWindows windows;
  private final IndexFeed feed;
  private final GeoTraining training;
  private final Clock clock;
  private final Duration every;
  private final Thread thread;
  private volatile boolean closed;

  LocationTrainingLoop(SampleIngest mesh, MeshWindows windows, IndexFeed feed, GeoTraining training, Clock clock,
      Duration every) {
    this.mesh = mesh;
    this.windows = windows;
    this.feed = feed;
    this.training = training;
    this.clock = clock;
    this.every = every;
    // background work, like the round loop: queries come first (README, "Thread priorities")
    this.thread = Thread.ofPlatform().name("location-training").priority(Thread.MIN_PRIORITY).daemon().unstarted(this::run);
  }

  LocationTrainingLoop start() {
    mesh.startMeshOnly();
    thread.start();
    return this;
  }

  private void run() {
    // the first training a round interval after the start, as on an ingesting replica: trained on
    // the first poll's part of the mesh, the model predicted half the servers (GeoCoordinatorTest)
    long next = clock.millis() + every.toMillis();
    try {
      while (!closed) {
        mesh.poll(Duration.ofMillis(Math.max(1, Math.min(1000, next - clock.millis()))));
        if (clock.millis() >= next && feed.caughtUp()) {
          training.submit(windows.matrix(1), feed.current()); // in the background; skipped while one runs
          next = clock.millis() + every.toMillis();
        }
      }
    } catch (WakeupException e) {
      if (!closed) throw e;
    } catch (RuntimeException e) {
      log.error("location training loop stopped: {}", e.toString(), e);
    }
  }

  boolean alive() {
    return thread.isAlive();
  }

  @Override
  public void close() {
    closed = true;
    mesh.wakeup();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    mesh.close();
  }
}
