package dev.reed.testbed.world;

import java.util.Objects;

/**
 * One emulated host: a game server, a landmark or a client.
 *
 * @param index position in its latency model (0-based)
 * @param label human-readable name, e.g. {@code "server-17 (Frankfurt)"} or {@code planetlab490_3}
 * @param region coarse region; {@link Region#UNKNOWN} for measured matrices without geography
 * @param city city name, or null when unknown
 * @param lat latitude in degrees, NaN when unknown
 * @param lon longitude in degrees, NaN when unknown
 */
public record Host(int index, String label, Region region, String city, double lat, double lon) {
  public Host {
    if (index < 0) {
      throw new IllegalArgumentException("negative host index " + index);
    }
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(region, "region");
  }
}
