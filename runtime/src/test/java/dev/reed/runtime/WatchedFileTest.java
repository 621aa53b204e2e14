package dev.reed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.proto.Endpoints;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WatchedFileTest {
  @Test
  void rereadsOnChangeKeepsTheLastGoodContentsAndReportsAFailureOnce(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("deny");
    WatchedFile<DenyList> w = new WatchedFile<>("deny file", f, DenyList::read, DenyList.NONE, d -> d.size() + " entries");
    WatchedFile.Refresh missing = w.refresh();
    assertThat(missing.failed()).isTrue();
    assertThat(missing.message()).contains("deny file " + f + " not reloaded (keeping 0 entries)");
    assertThat(w.refresh().message()).as("the same failure is reported once").isNull();
    assertThat(w.loaded()).isFalse();

    Instant t = Instant.parse("2026-11-21T07:00:00Z");
    Files.writeString(f, "127.0.0.1\n127.0.0.2\n");
    Files.setLastModifiedTime(f, FileTime.from(t));
    WatchedFile.Refresh read = w.refresh();
    assertThat(read.failed()).isFalse();
    assertThat(read.message()).isEqualTo("deny file " + f + ": 2 entries");
    assertThat(w.loaded()).isTrue();
    assertThat(w.refresh().message()).as("unchanged").isNull();

    Files.writeString(f, "127.0.0.1/40\n");
    Files.setLastModifiedTime(f, FileTime.from(t.plusSeconds(1)));
    WatchedFile.Refresh bad = w.refresh();
    assertThat(bad.failed()).isTrue();
    assertThat(bad.message()).contains("keeping 2 entries").contains(":1: prefix length out of range");
    assertThat(w.current().size()).isEqualTo(2);
    assertThat(w.refresh().message()).isNull();

    Files.writeString(f, "127.0.0.3\n");
    Files.setLastModifiedTime(f, FileTime.from(t.plusSeconds(2)));
    assertThat(w.refresh().message()).endsWith(": 1 entries");
    assertThat(w.current().denies(Endpoints.parse("127.0.0.3:1"))).isTrue();
  }
}
