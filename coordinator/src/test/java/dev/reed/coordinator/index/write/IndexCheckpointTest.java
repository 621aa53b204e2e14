package dev.reed.coordinator.index.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.reed.coordinator.index.read.DecodedServer;
import dev.reed.coordinator.index.read.LandmarkNumbers;
import dev.reed.coordinator.index.read.RankedTemplateTest;
import dev.reed.proto.v1.Coordinate;
import dev.reed.proto.v1.IntegrityKind;
import dev.reed.proto.v1.ServerCoordinate;
import dev.reed.proto.v1.ServerIntegrity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkpoint file: what is written is read back as the index held it; a damaged file is refused, never half-read. */
class IndexCheckpointTest {
  @TempDir Path dir;

  private static IndexCheckpoint.Contents contents(int n) {
    LandmarkNumbers numbers = new LandmarkNumbers();
    Map<String, DecodedServer> servers = new HashMap<>();
    for (int i = 0; i < n; i++) {
      String ip = "10.0." + i / 200 + "." + i % 200;
      ServerCoordinate c = RankedTemplateTest.server(ip, "lm-" + i % 7, "lm-" + (i + 3) % 7).toBuilder()
          .setCoordinate(Coordinate.newBuilder().addComponents(i * 0.5).addComponents(-i).setHeightMs(i % 3))
          .setIntegrity(ServerIntegrity.newBuilder().setKind(i % 5 == 0 ? IntegrityKind.INTEGRITY_KIND_INCONSISTENT
              : IntegrityKind.INTEGRITY_KIND_OK))
          .setRound(i).build();
      servers.put(ip + ":27015", DecodedServer.of(ip + ":27015", c, 2, numbers, name -> name, a -> a));
    }
    return new IndexCheckpoint.Contents(Instant.parse("2026-11-27T01:00:00Z"), 2, true,
        Map.of(0, 17L, 1, 0L, 5, 123_456_789_012L), numbers.table(), servers);
  }

  @Test
  void whatIsWrittenIsReadBackAsTheIndexHeldIt() throws IOException {
    IndexCheckpoint c = new IndexCheckpoint(dir.resolve("sub/index.checkpoint"));
    assertThat(c.read(n -> n, a -> a)).isEmpty();
    IndexCheckpoint.Contents written = contents(1000);
    c.write(written);
    Map<dev.reed.coordinates.ranking.ServerAttributes, dev.reed.coordinates.ranking.ServerAttributes> pool = new HashMap<>();
    IndexCheckpoint.Contents read = c.read(String::intern, a -> pool.computeIfAbsent(a, x -> x)).orElseThrow();
    assertThat(read.writtenAt()).isEqualTo(written.writtenAt());
    assertThat(read.dimensions()).isEqualTo(2);
    assertThat(read.heightModel()).isTrue();
    assertThat(read.offsets()).isEqualTo(written.offsets());
    assertThat(read.landmarkIds()).isEqualTo(written.landmarkIds()).hasSize(7);
    assertThat(read.servers().keySet()).isEqualTo(written.servers().keySet());
    written.servers().forEach((key, w) -> {
      DecodedServer r = read.servers().get(key);
      assertThat(r.template().common()).as(key).isEqualTo(w.template().common());
      assertThat(r.template().compactRtts()).isEqualTo(w.template().compactRtts());
      assertThat(r.template().maxRef()).isEqualTo(w.template().maxRef());
      assertThat(r.template().integrity()).isEqualTo(w.template().integrity());
      assertThat(r.template().rest()).isEqualTo(w.template().rest());
      assertThat(r.entry().key()).isEqualTo(key);
      assertThat(r.entry().coordinate().components()).isEqualTo(w.entry().coordinate().components());
      assertThat(r.entry().coordinate().height()).isEqualTo(w.entry().coordinate().height());
      assertThat(r.entry().attributes()).isEqualTo(w.entry().attributes());
      assertThat(r.entry().attributes()).as("the one shared instance").isSameAs(pool.get(w.entry().attributes()));
      // the server a client reads back, its landmark RTTs named through the read table, is the one written
      assertThat(r.template().message(false, read.landmarkIds())).isEqualTo(w.template().message(false, written.landmarkIds()));
      assertThat(r.template().landmarkRtts(read.landmarkIds())).isEqualTo(w.template().landmarkRtts(written.landmarkIds()));
    });
    try (var files = Files.list(c.file().getParent())) {
      assertThat(files).containsExactly(c.file());
    }
  }

  @Test
  void aDamagedFileIsRefusedWithItsReason() throws IOException {
    IndexCheckpoint c = new IndexCheckpoint(dir.resolve("index.checkpoint"));
    c.write(contents(200));
    byte[] whole = Files.readAllBytes(c.file());

    byte[] flipped = whole.clone();
    flipped[whole.length / 2] ^= 0x10;
    Files.write(c.file(), flipped);
    assertThatThrownBy(() -> c.read(n -> n, a -> a)).isInstanceOf(IOException.class);

    Files.write(c.file(), Arrays.copyOf(whole, whole.length - 3));
    assertThatThrownBy(() -> c.read(n -> n, a -> a)).isInstanceOf(IndexCheckpoint.InvalidCheckpointException.class)
        .hasMessageContaining("truncated");

    Files.write(c.file(), Arrays.copyOf(whole, whole.length + 1));
    assertThatThrownBy(() -> c.read(n -> n, a -> a)).isInstanceOf(IndexCheckpoint.InvalidCheckpointException.class)
        .hasMessageContaining("after the checksum");

    byte[] older = whole.clone();
    older[7] = '9'; // another format version
    Files.write(c.file(), older);
    assertThatThrownBy(() -> c.read(n -> n, a -> a)).isInstanceOf(IndexCheckpoint.InvalidCheckpointException.class)
        .hasMessageContaining("not an index checkpoint of this version");
  }

  @Test
  void aWriteThatFailsLeavesThePreviousCheckpoint() throws IOException {
    IndexCheckpoint c = new IndexCheckpoint(dir.resolve("index.checkpoint"));
    c.write(contents(10));
    IndexCheckpoint.Contents bad = contents(20);
    Map<String, DecodedServer> failing = new HashMap<>(bad.servers()) {
      @Override
      public java.util.Set<Map.Entry<String, DecodedServer>> entrySet() {
        throw new IllegalStateException("the index went away");
      }
    };
    assertThatThrownBy(() -> c.write(new IndexCheckpoint.Contents(bad.writtenAt(), 2, true, bad.offsets(), bad.landmarkIds(),
        failing))).hasMessageContaining("went away");
    assertThat(c.read(n -> n, a -> a).orElseThrow().servers()).hasSize(10);
    try (var files = Files.list(dir)) {
      assertThat(files).containsExactly(c.file());
    }
  }
}
