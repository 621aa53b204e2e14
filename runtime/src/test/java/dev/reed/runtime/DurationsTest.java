package dev.reed.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void parsesOperatorForms() {
    assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Durations.parse("PT5M")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Durations.parse("pt5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Durations.parse("2D")).as("the coordinator accepted units in either case").isEqualTo(Duration.ofDays(2));
    assertThat(Durations.parse("500MS")).isEqualTo(Duration.ofMillis(500));
  }

  @Test
  void rejectsGarbageWithAClearMessage() {
    assertThatThrownBy(() -> Durations.parse("5x")).hasMessageContaining("invalid duration '5x'").hasMessageContaining("30s");
    assertThatThrownBy(() -> Durations.parse("m5")).hasMessageContaining("invalid duration 'm5'");
    assertThatThrownBy(() -> Durations.parse("")).hasMessageContaining("empty duration");
    assertThatThrownBy(() -> Durations.parse("PT5Q")).hasMessageContaining("invalid duration");
  }

  @Test
  void formatsWhatItParses() {
    assertThat(Durations.format(Duration.ofMinutes(5))).isEqualTo("5m");
    assertThat(Durations.format(Duration.ofSeconds(30))).isEqualTo("30s");
    assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
    assertThat(Durations.format(Duration.ofMillis(1250))).isEqualTo("1s250ms");
    assertThat(Durations.format(Duration.ofDays(2))).isEqualTo("2d");
    assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
    for (Duration d : new Duration[] {Duration.ofMillis(86_461_001), Duration.ofMinutes(45), Duration.ofMillis(1)}) {
      assertThat(Durations.parse(Durations.format(d))).isEqualTo(d);
    }
  }
}
