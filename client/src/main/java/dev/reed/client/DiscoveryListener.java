package dev.reed.client;

/**
 * Receives {@link DiscoveryEvent}s while a discovery runs. Calls come one at a time from the
 * discovering thread, in the order things happened; keep them short (redraw, append a row).
 */
@FunctionalInterface
public interface DiscoveryListener {

  void onEvent(DiscoveryEvent event);

  /** Ignores every event. */
  DiscoveryListener NONE = e -> {};
}
