package dev.reed.agent.round;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The landmark's round number, monotonic across restarts: persisted beside the spool and never
 * below the round of the landmark's own last announcement on {@code reed.landmarks} (which
 * survives the loss of the VM and its disk). A sample's identity is (landmark, round, target), so
 * a round number must never repeat.
 */
final class RoundCounter {
  private final Path file;
  private long last;

  RoundCounter(Path dir) throws IOException {
    this.file = dir.resolve("round");
    if (Files.exists(file)) {
      try {
        last = Long.parseLong(Files.readString(file, StandardCharsets.US_ASCII).strip());
      } catch (NumberFormatException e) {
        throw new IOException("round counter " + file + " is not a number; delete it to start from the announced round", e);
      }
    }
  }

  /** The next round: above both the persisted one and {@code announced}; persisted before it is returned. */
  long next(long announced) throws IOException {
    long n = Math.max(last, announced) + 1;
    Path tmp = file.resolveSibling("round.tmp");
    Files.writeString(tmp, n + "\n", StandardCharsets.US_ASCII);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    last = n;
    return n;
  }

  long last() {
    return last;
  }
}
