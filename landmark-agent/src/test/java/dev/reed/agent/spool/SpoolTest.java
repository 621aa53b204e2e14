package dev.reed.agent.spool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpoolTest {
  @TempDir Path dir;

  private static List<SpooledRecord> batch(String tag, int n) {
    List<SpooledRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new SpooledRecord("reed.samples", 1_700_000_000_000L + i, "lm/1/s/" + tag + i,
          (tag + i).getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3, (byte) i}));
    }
    return out;
  }

  @Test
  void batchesComeOutInOrderAndLeaveOnlyWhenAcknowledged() throws Exception {
    try (Spool s = Spool.open(dir, 1 << 20, 4096, true)) {
      s.append(batch("a", 3));
      s.append(batch("b", 2));
      SpoolEntry head = s.peek();
      assertThat(head.records()).isEqualTo(batch("a", 3));
      assertThat(s.peek()).isEqualTo(head); // peek does not remove
      s.acknowledge(head);
      assertThat(s.peek().records()).isEqualTo(batch("b", 2));
      assertThat(s.stats().records()).isEqualTo(2);
      s.acknowledge(s.peek());
      assertThat(s.peek()).isNull();
      assertThat(s.isEmpty()).isTrue();
      assertThat(s.stats().bytes()).isZero();
    }
  }

  @Test
  void survivesRestartAcrossSegments() throws Exception {
    try (Spool s = Spool.open(dir, 1 << 20, 1024, true)) {
      for (int i = 0; i < 20; i++) s.append(batch("r" + i + "-", 5));
      s.acknowledge(s.peek());
      s.acknowledge(s.peek());
    }
    assertThat(segmentFiles()).hasSizeGreaterThan(1);
    try (Spool s = Spool.open(dir, 1 << 20, 1024, true)) {
      assertThat(s.stats().batches()).isEqualTo(18);
      for (int i = 2; i < 20; i++) {
        SpoolEntry e = s.peek();
        assertThat(e.records()).isEqualTo(batch("r" + i + "-", 5));
        s.acknowledge(e);
      }
      assertThat(s.isEmpty()).isTrue();
      s.append(batch("after", 1));
    }
    try (Spool s = Spool.open(dir, 1 << 20, 1024, true)) {
      assertThat(s.peek().records()).isEqualTo(batch("after", 1));
    }
  }

  @Test
  void fullSpoolDropsOldestFirstAndCountsIt() throws Exception {
    try (Spool s = Spool.open(dir, 2048, 1024, false)) {
      long dropped = 0;
      for (int i = 0; i < 30; i++) dropped += s.append(batch("f" + i + "-", 4));
      SpoolStats st = s.stats();
      assertThat(st.bytes()).isLessThanOrEqualTo(2048);
      assertThat(st.droppedRecords()).isEqualTo(dropped).isPositive();
      assertThat(st.droppedBatches() * 4).isEqualTo(st.droppedRecords());
      assertThat(st.batches() + st.droppedBatches()).isEqualTo(30);
      // the survivors are the newest, still in order
      int first = (int) st.droppedBatches();
      for (int i = first; i < 30; i++) {
        SpoolEntry e = s.peek();
        assertThat(e.records()).isEqualTo(batch("f" + i + "-", 4));
        s.acknowledge(e);
      }
    }
  }

  @Test
  void oversizedBatchIsRejectedWithAClearError() throws Exception {
    try (Spool s = Spool.open(dir, 1024, 1024, false)) {
      List<SpooledRecord> big = List.of(new SpooledRecord("t", 0, "id", new byte[0], new byte[2000]));
      assertThatThrownBy(() -> s.append(big)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("exceeds the spool bound");
    }
  }

  @Test
  void tornTailIsTruncatedAndCorruptEntryIsSkipped() throws Exception {
    try (Spool s = Spool.open(dir, 1 << 20, 1 << 20, true)) {
      s.append(batch("x", 2));
      s.append(batch("y", 2));
      s.append(batch("z", 2));
    }
    Path seg = segmentFiles().getFirst();
    long size = Files.size(seg);
    // flip a payload byte of the second entry, and cut the third in half
    try (FileChannel ch = FileChannel.open(seg, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer len = ByteBuffer.allocate(4);
      ch.read(len, 0);
      long second = 8 + len.flip().getInt();
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, second + 20);
      b.put(0, (byte) (b.get(0) ^ 0x5a));
      ch.write(b.rewind(), second + 20);
      ch.truncate(size - 10);
    }
    try (Spool s = Spool.open(dir, 1 << 20, 1 << 20, true)) {
      assertThat(s.stats().corruptEntries()).isEqualTo(2);
      assertThat(s.stats().batches()).isEqualTo(1);
      assertThat(s.peek().records()).isEqualTo(batch("x", 2));
      s.acknowledge(s.peek());
      s.append(batch("w", 1)); // appends after the truncation point are readable
    }
    try (Spool s = Spool.open(dir, 1 << 20, 1 << 20, true)) {
      assertThat(s.stats().corruptEntries()).isZero();
      assertThat(s.peek().records()).isEqualTo(batch("w", 1));
    }
  }

  private List<Path> segmentFiles() throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".spool")).sorted().toList();
    }
  }
}
