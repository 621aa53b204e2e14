package dev.reed.coordinator.frontend;

import dev.reed.probe.master.Quake3MasterCodec;
import dev.reed.probe.quake3.Quake3Codec;
import dev.reed.probe.quake3.Quake3Reply;
import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
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
public final class Quake3MasterFrontEnd implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Quake3MasterFrontEnd.class);
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
  static final String ANY_PROTOCOL = String.valueOf(Quake3MasterCodec.QUAKE3_PROTOCOL);

  /** Counters for metrics and tests. */
  public record Counters(long heartbeats, long registered, long rejected, long listRequests, long malformed) {}

  private record Pending(String challenge, long sentAtMs) {}

  private record Registration(ServerInfo info, long atMs) {}

  private static final int MAX_REGISTERED = 65_536;
  private static final long REGISTRATION_TTL_MS = 15 * 60_000;

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
  private final DatagramLoop loop;

  private Quake3MasterFrontEnd(InetSocketAddress bind, ServerDirectory directory,
      BiConsumer<InetSocketAddress, ServerInfo> registrar, Clock clock) throws IOException {
    this.directory = directory;
    this.registrar = registrar;
    this.clock = clock;
    this.loop = new DatagramLoop("q3-master", bind, 2048);
  }

  /**
   * @param directory what {@code getservers} lists (servers registered here are listed as well)
   * @param registrar called once per verified heartbeat with the server's address and info
   */
  public static Quake3MasterFrontEnd start(InetSocketAddress bind, ServerDirectory directory,
      BiConsumer<InetSocketAddress, ServerInfo> registrar, Clock clock) throws IOException {
    Quake3MasterFrontEnd m = new Quake3MasterFrontEnd(bind, directory, registrar, clock);
    m.loop.start(m::handle, e -> {
      m.malformed.incrementAndGet();
      log.debug("quake3 master packet dropped: {}", e.toString());
    });
    log.info("quake3 master front end listening on udp {}", m.localAddress());
    return m;
  }

  public InetSocketAddress localAddress() {
    return loop.localAddress();
  }

  public Counters counters() {
    return new Counters(heartbeats.get(), accepted.get(), rejected.get(), listRequests.get(), malformed.get());
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
      infoResponse(from, Quake3Codec.decodeReply(ByteBuffer.wrap(data, 0, length)));
    } else if (lower.startsWith("getservers") && !lower.startsWith("getserversext")) {
      listRequests.incrementAndGet();
      getservers(from, Quake3MasterCodec.decodeGetServers(command));
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
    String challenge = Quake3Codec.newChallenge(random);
    pending.put(from, new Pending(challenge, now));
    send(from, Quake3Codec.encodeGetInfo(challenge));
  }

  private void infoResponse(InetSocketAddress from, Quake3Reply reply) {
    Pending p = pending.remove(from);
    if (p == null || clock.millis() - p.sentAtMs() > CHALLENGE_TTL_MS || !p.challenge().equals(reply.challenge())) {
      rejected.incrementAndGet();
      log.info("quake3 master: unverified infoResponse from {} (no matching challenge)", from);
      return;
    }
    ServerInfo serverInfo = reply.serverInfo();
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

  /**
   * {@code getservers <protocol> [empty] [full] [gametypes...]} or DarkPlaces
   * {@code getservers <game> <protocol> ...}; as in dpmaster, empty and full servers are listed
   * only when asked for, and only when their player counts are known.
   */
  private void getservers(InetSocketAddress from, Quake3MasterCodec.GetServers request) throws IOException {
    String protocol = request.protocol();
    String game = request.game();
    Map<InetSocketAddress, ServerInfo> list = new LinkedHashMap<>();
    for (ListedServer s : directory.servers(GameProtocol.GAME_PROTOCOL_QUAKE3)) list.put(s.address(), s.info());
    long now = clock.millis();
    registered.entrySet().removeIf(e -> list.containsKey(e.getKey()) || now - e.getValue().atMs() > REGISTRATION_TTL_MS);
    registered.forEach((a, r) -> list.putIfAbsent(a, r.info()));
    List<InetSocketAddress> listed = new ArrayList<>();
    for (Map.Entry<InetSocketAddress, ServerInfo> e : list.entrySet()) {
      if (!(e.getKey().getAddress() instanceof java.net.Inet4Address)) continue;
      ServerInfo si = e.getValue();
      if (protocol != null && !protocol.equals(ANY_PROTOCOL) && !si.getVersion().isEmpty()
          && !si.getVersion().equals(protocol)) {
        continue;
      }
      if (game != null && !si.getGame().isEmpty() && !si.getGame().equalsIgnoreCase(game)) continue;
      if (!request.empty() && si.getMaxPlayers() > 0 && si.getPlayers() == 0) continue;
      if (!request.full() && si.getMaxPlayers() > 0 && si.getPlayers() >= si.getMaxPlayers()) continue;
      listed.add(e.getKey());
    }
    for (byte[] packet : Quake3MasterCodec.encodeResponses(listed, MAX_PACKET)) {
      send(from, packet);
    }
  }

  private void send(InetSocketAddress to, byte[] packet) throws IOException {
    loop.send(to, packet);
  }

  @Override
  public void close() {
    loop.close();
  }
}
