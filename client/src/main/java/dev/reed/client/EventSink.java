package dev.reed.client;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Delivers events to the caller's listener one at a time; a throwing listener cannot break discovery. */
final class EventSink {
  private static final Logger log = LoggerFactory.getLogger(EventSink.class);
  private final DiscoveryListener listener;
  private boolean warned;

  EventSink(DiscoveryListener listener) {
    this.listener = listener == null ? DiscoveryListener.NONE : listener;
  }

  synchronized void emit(DiscoveryEvent e) {
    try {
      listener.onEvent(e);
    } catch (RuntimeException ex) {
      if (!warned) log.warn("discovery listener threw on {}; further listener errors are not logged", e, ex);
      warned = true;
    }
  }
}
