package dev.reed.coordinator.catalog;

import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Quake III-protocol master server front end (ioquake3 {@code sv_main.c} heartbeats, dpmaster
 * {@code techinfo.txt}): game servers started with {@code dedicated 2} and {@code sv_master1}
 * pointed here announce themselves with {@code heartbeat QuakeArena-1} (or DarkPlaces /
 * EnemyTerritory-1); the master answers with {@code getinfo <challenge>} and registers the server
 * only when the {@code infoResponse} echoes the challenge from the heartbeat's own address, so a
 * spoofed heartbeat registers nothing. {@code getservers} requests are answered from the
 * catalog, so ordinary browsers and {@code quakestat -q3m} list what the landmarks probe.
 *
 * <p>One receive thread; every per-peer table is bounded.
 */
public final class Quake3MasterServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Quake3MasterServer.class);
  private static final byte[] OOB = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
  private static final int MAX_PENDING = 4096;
  private static final long CHALLENGE_TTL_MS = 5_000;
  private static final long HEARTBEAT_SPACING_MS = 2_000;
  private static final int MAX_PACKET = 1400;
  /**
   * Quake3 1.32's protocol number, what generic browsers (e.g. {@code quakestat -q3m}) ask for.
   * This master is a discovery catalog, not a compatibility gate: a request for 68 lists every
   * Quake III-family server (the browser's getinfo shows the real protocol); any other number
   * (71 OpenArena/ioquake3, 84 ET) lists exactly that protocol.
   */
  static final String ANY_PROTOCOL = "68";

  /** Counters for metrics and tests. */
  public record Counters(long heartbeats, long registered, long rejected, long listRequests, long malformed) {}

  private record Pending(String challenge, long sentAtMs) {}

  private record Registration(ServerInfo info, long atMs) {}

  private static final int MAX_REGISTERED = 65_536;
  private static final long REGISTRATION_TTL_MS = 15 * 60_000;

  private final DatagramSocket socket;
  private final ServerDirectory directory;
  private final BiConsumer<InetSocketAddress, ServerInfo> registrar;
  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final Map<InetSocketAddress, Pending> pending =
      java.util.Collections.synchronizedMap(new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<InetSocketAddress, Pending> e) {
          return size() > MAX_PENDING;
        }
      });
  /** Verified servers not yet in the catalog the directory reads (reed.targets round trip), bounded. */
  private final Map<InetSocketAddress, Registration> registered = new ConcurrentHashMap<>();
  private final AtomicLong heartbeats = new AtomicLong();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicLong listRequests = new AtomicLong();
  private final AtomicLong malformed = new AtomicLong();
  private final Thread thread;
  private volatile boolean closed;

  private Quake3MasterServer(DatagramSocket socket, ServerDirectory directory,
      BiConsumer<InetSocketAddress, ServerInfo> registrar, Clock clock) {
    this.socket = socket;
    this.directory = directory;
    this.registrar = registrar;
    this.clock = clock;
    this.thread = Thread.ofPlatform().name("q3-master").daemon().start(this::run);
  }

  /**
   * @param directory what {@code getservers} lists (servers registered here are listed as well)
   * @param registrar called once per verified heartbeat with the server's address and info
   */
  public static Quake3MasterServer start(InetSocketAddress bind, ServerDirectory directory,
      BiConsumer<InetSocketAddress, ServerInfo> registrar, Clock clock) throws IOException {
    DatagramSocket s = new DatagramSocket(bind);
    Quake3MasterServer m = new Quake3MasterServer(s, directory, registrar, clock);
    log.info("quake3 master front end listening on udp {}", m.localAddress());
    return m;
  }

  public InetSocketAddress localAddress() {
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  public Counters counters() {
    return new Counters(heartbeats.get(), accepted.get(), rejected.get(), listRequests.get(), malformed.get());
  }

  private void run() {
    byte[] buf = new byte[2048];
    DatagramPacket p = new DatagramPacket(buf, buf.length);
    while (!closed) {
      try {
        p.setLength(buf.length);
        socket.receive(p);
        handle((InetSocketAddress) p.getSocketAddress(), buf, p.getLength());
      } catch (SocketException e) {
        if (!closed) log.warn("quake3 master socket failed: {}", e.toString());
        return;
      } catch (IOException | RuntimeException e) {
        malformed.incrementAndGet();
        log.debug("quake3 master packet dropped: {}", e.toString());
      }
    }
  }

  void handle(InetSocketAddress from, byte[] data, int length) throws IOException {
    if (length < 5 || data[0] != (byte) 0xff || data[1] != (byte) 0xff || data[2] != (byte) 0xff || data[3] != (byte) 0xff) {
      malformed.incrementAndGet();
      return;
    }
    String text = new String(data, 4, length - 4, StandardCharsets.ISO_8859_1);
    int end = firstOf(text, '\n', '\0');
    String command = (end < 0 ? text : text.substring(0, end)).strip();
    String lower = command.toLowerCase(Locale.ROOT);
    if (lower.startsWith("heartbeat")) {
      heartbeat(from);
    } else if (lower.equals("inforesponse")) {
      infoResponse(from, end < 0 ? "" : text.substring(end + 1));
    } else if (lower.startsWith("getservers") && !lower.startsWith("getserversext")) {
      listRequests.incrementAndGet();
      getservers(from, command.split("\\s+"));
    } else {
      malformed.incrementAndGet();
    }
  }

  private static int firstOf(String s, char a, char b) {
    int i = s.indexOf(a);
    int j = s.indexOf(b);
    return i < 0 ? j : j < 0 ? i : Math.min(i, j);
  }

  private void heartbeat(InetSocketAddress from) throws IOException {
    heartbeats.incrementAndGet();
    long now = clock.millis();
    Pending prior = pending.get(from);
    if (prior != null && now - prior.sentAtMs() < HEARTBEAT_SPACING_MS) return; // shutdown sends two
    String challenge = challenge();
    pending.put(from, new Pending(challenge, now));
    send(from, ("getinfo " + challenge).getBytes(StandardCharsets.ISO_8859_1));
  }

  private String challenge() {
    String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    StringBuilder b = new StringBuilder(12);
    for (int i = 0; i < 12; i++) b.append(alphabet.charAt(random.nextInt(alphabet.length())));
    return b.toString();
  }

  private void infoResponse(InetSocketAddress from, String infoString) {
    Pending p = pending.remove(from);
    Map<String, String> info = InfoString.parse(infoString.strip());
    if (p == null || clock.millis() - p.sentAtMs() > CHALLENGE_TTL_MS || !p.challenge().equals(info.get("challenge"))) {
      rejected.incrementAndGet();
      log.info("quake3 master: unverified infoResponse from {} (no matching challenge)", from);
      return;
    }
    ServerInfo serverInfo = toServerInfo(info);
    if (registered.size() >= MAX_REGISTERED && !registered.containsKey(from)) {
      rejected.incrementAndGet();
      log.warn("quake3 master: {} verified but not listed here: {} registrations pending the catalog", from, MAX_REGISTERED);
    }
    boolean isNew = registered.size() < MAX_REGISTERED
        && registered.put(from, new Registration(serverInfo, clock.millis())) == null;
    accepted.incrementAndGet();
    if (isNew) log.info("quake3 master: registered {} ({}, protocol {})", from, serverInfo.getGame(), serverInfo.getVersion());
    registrar.accept(from, serverInfo);
  }

  static ServerInfo toServerInfo(Map<String, String> info) {
    ServerInfo.Builder b = ServerInfo.newBuilder()
        .setName(info.getOrDefault("hostname", ""))
        .setMap(info.getOrDefault("mapname", ""))
        .setGame(info.getOrDefault("gamename", info.getOrDefault("game", "")))
        .setVersion(info.getOrDefault("protocol", ""))
        .setGameType(info.getOrDefault("gametype", ""))
        .setPassword("1".equals(info.get("g_needpass")))
        .setSecure("1".equals(info.get("pure")));
    b.setPlayers(parseUnsigned(info.get("clients")));
    b.setMaxPlayers(parseUnsigned(info.get("sv_maxclients")));
    int humans = parseUnsigned(info.get("g_humanplayers"));
    if (info.containsKey("g_humanplayers") && humans <= b.getPlayers()) b.setBots(b.getPlayers() - humans);
    return b.build();
  }

  private static int parseUnsigned(String s) {
    if (s == null) return 0;
    try {
      return Math.max(0, Integer.parseInt(s.strip()));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * {@code getservers <protocol> [empty] [full] [gametypes...]} or DarkPlaces
   * {@code getservers <game> <protocol> ...}; as in dpmaster, empty and full servers are listed
   * only when asked for, and only when their player counts are known.
   */
  private void getservers(InetSocketAddress from, String[] args) throws IOException {
    String game = null;
    String protocol = null;
    boolean empty = false;
    boolean full = false;
    int i = 1;
    if (args.length > 1 && !args[1].chars().allMatch(Character::isDigit)) {
      game = args[1];
      i = 2;
    }
    if (args.length > i) protocol = args[i++];
    for (; i < args.length; i++) {
      switch (args[i].toLowerCase(Locale.ROOT)) {
        case "empty" -> empty = true;
        case "full" -> full = true;
        default -> { } // gametype and ipv4/ipv6 keywords narrow nothing we track precisely
      }
    }
    Map<InetSocketAddress, ServerInfo> list = new LinkedHashMap<>();
    for (ListedServer s : directory.servers(GameProtocol.GAME_PROTOCOL_QUAKE3)) list.put(s.address(), s.info());
    long now = clock.millis();
    registered.entrySet().removeIf(e -> list.containsKey(e.getKey()) || now - e.getValue().atMs() > REGISTRATION_TTL_MS);
    registered.forEach((a, r) -> list.putIfAbsent(a, r.info()));
    List<byte[]> entries = new ArrayList<>();
    for (Map.Entry<InetSocketAddress, ServerInfo> e : list.entrySet()) {
      if (!(e.getKey().getAddress() instanceof java.net.Inet4Address)) continue;
      ServerInfo si = e.getValue();
      if (protocol != null && !protocol.equals(ANY_PROTOCOL) && !si.getVersion().isEmpty()
          && !si.getVersion().equals(protocol)) {
        continue;
      }
      if (game != null && !si.getGame().isEmpty() && !si.getGame().equalsIgnoreCase(game)) continue;
      if (!empty && si.getMaxPlayers() > 0 && si.getPlayers() == 0) continue;
      if (!full && si.getMaxPlayers() > 0 && si.getPlayers() >= si.getMaxPlayers()) continue;
      byte[] a = e.getKey().getAddress().getAddress();
      int port = e.getKey().getPort();
      entries.add(new byte[] {'\\', a[0], a[1], a[2], a[3], (byte) (port >> 8), (byte) port});
    }
    byte[] header = "getserversResponse".getBytes(StandardCharsets.ISO_8859_1);
    int perPacket = (MAX_PACKET - 4 - header.length - 7) / 7;
    int sent = 0;
    do {
      ByteArrayOutputStream out = new ByteArrayOutputStream(MAX_PACKET);
      out.write(header);
      int n = Math.min(perPacket, entries.size() - sent);
      for (int k = 0; k < n; k++) out.write(entries.get(sent + k));
      sent += n;
      if (sent == entries.size()) out.write("\\EOT\0\0\0".getBytes(StandardCharsets.ISO_8859_1));
      send(from, out.toByteArray());
    } while (sent < entries.size());
  }

  private void send(InetSocketAddress to, byte[] payload) throws IOException {
    byte[] b = new byte[4 + payload.length];
    System.arraycopy(OOB, 0, b, 0, 4);
    System.arraycopy(payload, 0, b, 4, payload.length);
    socket.send(new DatagramPacket(b, b.length, to));
  }

  @Override
  public void close() {
    closed = true;
    socket.close();
    try {
      thread.join(2000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
