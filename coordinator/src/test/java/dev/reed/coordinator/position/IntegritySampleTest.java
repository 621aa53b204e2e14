package dev.reed.coordinator.position;

import static org.assertj.core.api.Assertions.assertThat;

import dev.reed.coordinator.ingest.TargetWindows;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;

/** The integrity round's fixed sample of targets: the smallest CRC-32 of the key first, ties by key. */
class IntegritySampleTest {

  @Test
  void takesTheTargetsWithTheSmallestKeyHashWhateverTheOrderTheyComeIn() {
    TargetWindows w = new TargetWindows(8, 4);
    for (int i = 0; i < 5_000; i++) {
      String key = "10." + (i >> 8) + "." + (i & 255) + ".7:27015";
      w.seed(key, Endpoint.newBuilder().setIp(key.substring(0, key.indexOf(':'))).setPort(27015).build(),
          GameProtocol.GAME_PROTOCOL_A2S, null, 1, 0, List.of());
    }
    List<TargetWindows.Target> all = w.all();
    // the reference: a plain sort, hashing at every comparison (what the round did before)
    List<String> expected = all.stream()
        .sorted(Comparator.comparingLong((TargetWindows.Target t) -> crc(t.key())).thenComparing(TargetWindows.Target::key))
        .limit(300).map(TargetWindows.Target::key).toList();
    List<TargetWindows.Target> shuffled = new ArrayList<>(all);
    Collections.shuffle(shuffled, new Random(3));

    assertThat(LandmarkIntegrityRound.sample(all, 300)).extracting(TargetWindows.Target::key).containsExactlyElementsOf(expected);
    assertThat(LandmarkIntegrityRound.sample(shuffled, 300)).extracting(TargetWindows.Target::key)
        .containsExactlyElementsOf(expected);
    assertThat(LandmarkIntegrityRound.sample(all, 10_000)).hasSize(5_000);
    assertThat(LandmarkIntegrityRound.sample(List.of(), 300)).isEmpty();
  }

  private static long crc(String key) {
    CRC32 c = new CRC32();
    c.update(key.getBytes(StandardCharsets.UTF_8));
    return c.getValue();
  }
}
