package dev.reed.coordinator.catalog;

import dev.reed.probe.master.MasterListClient;
import dev.reed.probe.master.Quake3MasterCodec;
import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.runtime.TargetsFile;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Crawls an external master server for targets with {@link MasterListClient}: politely (one
 * request at a time, a pause between Valve pages, a hard cap on pages, a timeout per reply).
 * Quake3 masters are asked for protocol 68, which lists the whole Quake III family.
 */
public final class MasterCrawler {
  /** An external master to crawl. */
  public record Master(GameProtocol protocol, InetSocketAddress address) {
    /** Parses {@code q3 HOST:PORT}, {@code valve HOST:PORT} (also {@code q3:HOST:PORT}). */
    public static Master parse(String spec) {
      String s = spec.strip();
      int split = s.indexOf(' ') > 0 ? s.indexOf(' ') : s.indexOf(':');
      if (split <= 0) throw new IllegalArgumentException("expected 'q3 HOST:PORT' or 'valve HOST:PORT', got '" + spec + "'");
      String kind = s.substring(0, split).toLowerCase(Locale.ROOT);
      String hostPort = s.substring(split + 1).strip();
      GameProtocol p = switch (kind) {
        case "q3", "quake3" -> GameProtocol.GAME_PROTOCOL_QUAKE3;
        case "valve", "a2s", "steam" -> GameProtocol.GAME_PROTOCOL_A2S;
        default -> throw new IllegalArgumentException("unknown master kind '" + kind + "' (q3 or valve) in '" + spec + "'");
      };
      Endpoint e = TargetsFile.endpoint(hostPort);
      return new Master(p, Endpoints.toSocketAddress(e));
    }
  }

  private final MasterListClient client;

  public MasterCrawler(Duration replyTimeout, Duration pagePause, int maxPages) {
    // masters that do not send EOT end by silence; no crawl outlasts every page's wait and pause
    this.client = new MasterListClient(new MasterListClient.Settings(replyTimeout, replyTimeout, pagePause, maxPages,
        replyTimeout.plus(pagePause).multipliedBy(maxPages)));
  }

  /**
   * Server addresses the master lists (IPv4). A master that falls silent part-way yields what it
   * listed so far.
   */
  public Set<InetSocketAddress> crawl(Master master) throws IOException {
    try {
      return new LinkedHashSet<>(master.protocol() == GameProtocol.GAME_PROTOCOL_QUAKE3
          ? client.fetchQuake3(master.address(), Quake3MasterCodec.QUAKE3_PROTOCOL)
          : client.fetchValve(master.address(), ""));
    } catch (MasterListClient.IncompleteListException e) {
      return new LinkedHashSet<>(e.partial());
    }
  }
}
