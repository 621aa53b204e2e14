package dev.reed.probe.master;

import dev.reed.proto.Endpoints;
import java.io.ByteArrayOutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The Valve Master Server Query Protocol (docs/protocols.md): request
 * {@code 31 <region> "IP:port" 00 <filter> 00}, reply {@code FF FF FF FF 66 0A} then 6-byte
 * big-endian IPv4+port entries, the last page ending with {@code 0.0.0.0:0}. A client pages with
 * the last address it received as the next seed (cursor paging), starting at {@link #FIRST_SEED}.
 *
 * <p>Client side: {@link #encodeRequest}, {@link #decodeReply}. Server side:
 * {@link #decodeRequest}, {@link #encodeReply}. Stateless and thread-safe; decoders return null
 * for a packet that is not theirs instead of throwing.
 */
public final class ValveMasterCodec {
  /** The seed of the first page, and the terminator entry of the last. */
  public static final InetSocketAddress FIRST_SEED = new InetSocketAddress(Ipv4Entry.address(new byte[4]), 0);
  /** Region byte that asks for every region. */
  public static final int REGION_ALL = 0xFF;

  private static final byte[] REPLY_HEADER = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x66, 0x0a};

  /** A decoded request: where the page starts (exclusive) and the filter ("" = none). */
  public record Request(InetSocketAddress seed, String filter) {
    /** True for the first page's seed {@code 0.0.0.0:0}. */
    public boolean firstPage() {
      return isTerminator(seed);
    }
  }

  /**
   * One decoded reply page.
   *
   * @param servers the listed addresses, in order (entries with port 0 are not servers)
   * @param nextSeed the seed of the next page, or null when this was the last page (terminator seen
   *     or no entries at all)
   */
  public record Page(List<InetSocketAddress> servers, InetSocketAddress nextSeed) {
    public Page {
      servers = List.copyOf(servers);
    }
  }

  private ValveMasterCodec() {}

  /** {@code 31 FF "seed" 00 filter 00}, region all. */
  public static byte[] encodeRequest(InetSocketAddress seed, String filter) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x31);
    out.write(REGION_ALL);
    out.writeBytes(seedText(seed).getBytes(StandardCharsets.US_ASCII));
    out.write(0);
    out.writeBytes((filter == null ? "" : filter).getBytes(StandardCharsets.ISO_8859_1));
    out.write(0);
    return out.toByteArray();
  }

  /**
   * The request in {@code data[0, length)}, or null if it is not a master query. Parsed leniently:
   * qstat sends a stray byte after the seed's port, and the filter may be missing.
   */
  public static Request decodeRequest(byte[] data, int length) {
    if (length < 3 || data[0] != 0x31) return null;
    int seedEnd = indexOf(data, 2, length, (byte) 0);
    String seedText = new String(data, 2, (seedEnd < 0 ? length : seedEnd) - 2, StandardCharsets.ISO_8859_1);
    InetSocketAddress seed = parseSeed(seedText.strip());
    if (seed == null) return null;
    String filter = "";
    if (seedEnd >= 0 && seedEnd + 1 < length && data[seedEnd + 1] == '\\') {
      int filterEnd = indexOf(data, seedEnd + 1, length, (byte) 0);
      filter = new String(data, seedEnd + 1, (filterEnd < 0 ? length : filterEnd) - seedEnd - 1,
          StandardCharsets.ISO_8859_1);
    }
    return new Request(seed, filter);
  }

  /**
   * A reply page listing {@code servers} (IPv4 only), ending with the terminator when
   * {@code last}.
   */
  public static byte[] encodeReply(List<InetSocketAddress> servers, boolean last) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(REPLY_HEADER.length + (servers.size() + 1) * Ipv4Entry.SIZE);
    out.writeBytes(REPLY_HEADER);
    for (InetSocketAddress s : servers) Ipv4Entry.write(out, s);
    if (last) Ipv4Entry.write(out, FIRST_SEED);
    return out.toByteArray();
  }

  /** The page in {@code packet} (position to limit, not modified), or null if it is not a master reply. */
  public static Page decodeReply(ByteBuffer packet) {
    ByteBuffer b = packet.slice();
    if (b.remaining() < REPLY_HEADER.length) return null;
    for (byte h : REPLY_HEADER) if (b.get() != h) return null;
    List<InetSocketAddress> servers = new ArrayList<>();
    InetSocketAddress last = null;
    while (b.remaining() >= Ipv4Entry.SIZE) {
      InetSocketAddress entry = Ipv4Entry.read(b);
      if (isTerminator(entry)) return new Page(servers, null);
      if (entry.getPort() != 0) servers.add(entry);
      last = entry;
    }
    return new Page(servers, last);
  }

  /** The seed as sent: {@code "a.b.c.d:port"}. */
  public static String seedText(InetSocketAddress seed) {
    return seed.getAddress().getHostAddress() + ":" + seed.getPort();
  }

  private static boolean isTerminator(InetSocketAddress a) {
    return a.getAddress().isAnyLocalAddress() && a.getPort() == 0;
  }

  private static InetSocketAddress parseSeed(String s) {
    String seed = s.replaceFirst(":(\\d{1,5})[^:]*$", ":$1"); // qstat appends a stray byte to the port
    try {
      Endpoints.HostPort hp = Endpoints.hostPort(seed, -1);
      InetAddress ip = Endpoints.literal(hp.host());
      return ip instanceof Inet4Address ? new InetSocketAddress(ip, hp.port()) : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }


  private static int indexOf(byte[] a, int from, int to, byte b) {
    for (int i = from; i < to; i++) if (a[i] == b) return i;
    return -1;
  }
}
