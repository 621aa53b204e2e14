package dev.reed.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigLineTest {
  @Test
  void commentsAndBlankLinesAreLeftOutAndLinesKeepTheirNumbers() {
    List<ConfigLine> lines = ConfigLine.of(List.of("# header", "", "  q3 1.2.3.4:27960  # a comment", "\t", "a2s 5.6.7.8:27015"));
    assertThat(lines).containsExactly(new ConfigLine(3, "q3 1.2.3.4:27960"), new ConfigLine(5, "a2s 5.6.7.8:27015"));
    assertThat(ConfigLine.of(List.of("#only", "   "))).isEmpty();
  }
}
