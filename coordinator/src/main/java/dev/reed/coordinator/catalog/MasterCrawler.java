package dev.reed.coordinator.catalog;

import dev.reed.proto.Endpoints;
import dev.reed.proto.v1.Endpoint;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.runtime.TargetsFile;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Crawls an external master server for targets, politely: one request at a time, a pause between
 * Valve pages, a hard cap on pages and a timeout per reply. Quake3 masters get
 * {@code getservers <protocol> empty full} and answer in one or more {@code getserversResponse}
 * packets ending with {@code \EOT}; Valve masters are paged with the last address as the next seed
 * until {@code 0.0.0.0:0}.
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

  private final Duration replyTimeout;
  private final Duration pagePause;
  private final int maxPages;

  public MasterCrawler(Duration replyTimeout, Duration pagePause, int maxPages) {
    this.replyTimeout = replyTimeout;
    this.pagePause = pagePause;
    this.maxPages = maxPages;
  }

  /** Server addresses the master lists (IPv4). */
  public Set<InetSocketAddress> crawl(Master master) throws IOException, InterruptedException {
    try (DatagramSocket s = new DatagramSocket()) {
      s.setSoTimeout((int) replyTimeout.toMillis());
      return master.protocol() == GameProtocol.GAME_PROTOCOL_QUAKE3 ? crawlQuake3(s, master.address())
          : crawlValve(s, master.address());
    }
  }

  private Set<InetSocketAddress> crawlQuake3(DatagramSocket s, InetSocketAddress master) throws IOException {
    byte[] req = "\u00ff\u00ff\u00ff\u00ffgetservers 68 empty full".getBytes(StandardCharsets.ISO_8859_1);
    s.send(new DatagramPacket(req, req.length, master));
    Set<InetSocketAddress> out = new LinkedHashSet<>();
    byte[] buf = new byte[2048];
    byte[] header = "\u00ff\u00ff\u00ff\u00ffgetserversResponse".getBytes(StandardCharsets.ISO_8859_1);
    for (int packets = 0; packets < maxPages; packets++) {
      DatagramPacket p = new DatagramPacket(buf, buf.length);
      try {
        s.receive(p);
      } catch (SocketTimeoutException e) {
        break; // masters that do not send EOT end by silence
      }
      if (!p.getSocketAddress().equals(master) || p.getLength() < header.length) continue;
      boolean eot = false;
      int i = header.length;
      while (i < p.getLength()) {
        if (buf[i] != '\\') {
          i++;
          continue;
        }
        if (i + 4 <= p.getLength() && buf[i + 1] == 'E' && buf[i + 2] == 'O' && buf[i + 3] == 'T') {
          eot = true;
          break;
        }
        if (i + 7 > p.getLength()) break;
        byte[] ip = {buf[i + 1], buf[i + 2], buf[i + 3], buf[i + 4]};
        int port = ((buf[i + 5] & 0xff) << 8) | (buf[i + 6] & 0xff);
        if (port != 0) out.add(new InetSocketAddress(InetAddress.getByAddress(ip), port));
        i += 7;
      }
      if (eot) break;
    }
    return out;
  }

  private Set<InetSocketAddress> crawlValve(DatagramSocket s, InetSocketAddress master)
      throws IOException, InterruptedException {
    Set<InetSocketAddress> out = new LinkedHashSet<>();
    String seed = "0.0.0.0:0";
    byte[] buf = new byte[2048];
    for (int page = 0; page < maxPages; page++) {
      byte[] seedBytes = seed.getBytes(StandardCharsets.ISO_8859_1);
      byte[] req = new byte[2 + seedBytes.length + 2];
      req[0] = 0x31;
      req[1] = (byte) 0xff;
      System.arraycopy(seedBytes, 0, req, 2, seedBytes.length);
      s.send(new DatagramPacket(req, req.length, master));
      DatagramPacket p = new DatagramPacket(buf, buf.length);
      try {
        s.receive(p);
      } catch (SocketTimeoutException e) {
        break;
      }
      if (p.getLength() < 6 || buf[4] != 0x66) break;
      InetSocketAddress last = null;
      boolean end = false;
      for (int off = 6; off + 6 <= p.getLength(); off += 6) {
        byte[] ip = {buf[off], buf[off + 1], buf[off + 2], buf[off + 3]};
        int port = ((buf[off + 4] & 0xff) << 8) | (buf[off + 5] & 0xff);
        if (port == 0 && ip[0] == 0 && ip[1] == 0 && ip[2] == 0 && ip[3] == 0) {
          end = true;
          break;
        }
        last = new InetSocketAddress(InetAddress.getByAddress(ip), port);
        out.add(last);
      }
      if (end || last == null) break;
      seed = last.getAddress().getHostAddress() + ":" + last.getPort();
      Thread.sleep(pagePause.toMillis());
    }
    return out;
  }
}
