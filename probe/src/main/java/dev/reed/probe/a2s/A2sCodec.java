package dev.reed.probe.a2s;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.reed.probe.packet.MalformedPacketException;
import dev.reed.probe.packet.PacketReader;
import dev.reed.probe.packet.PacketWriter;
import dev.reed.proto.v1.ServerInfo;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Valve Source engine query (A2S) datagrams, both directions (Valve developer wiki "Server
 * queries"; byte layouts in docs/protocols.md). REED probes a game server with the query its players'
 * server browsers already send (Armitage &amp; Heyde 2011, section 6.3: no change to game servers),
 * so the encoders reproduce Steam's bytes exactly, including the December 2020 challenge resend.
 *
 * <p>Client side: {@link #encodeInfoRequest()}, {@link #encodeInfoRequest(int)},
 * {@link #encodePlayerRequest(int)}, {@link #encodeRulesRequest(int)}, {@link #decodeReply}.
 * Server side: {@link #decodeRequest}, {@link #encodeChallenge}, {@link #encodeInfo},
 * {@link #encodePlayers}, {@link #encodeRules}, {@link #encodeSplit}.
 *
 * <p>Decoders throw only {@link MalformedPacketException} (and its subclass
 * {@link dev.reed.probe.packet.UnsupportedPacketException}) for bad input; stateless and
 * thread-safe.
 */
public final class A2sCodec {
  /** Largest A2S datagram; anything longer is malformed. */
  public static final int MAX_PACKET_SIZE = 1400;
  /** Default payload of one split fragment, as Source servers send. */
  public static final int DEFAULT_SPLIT_SIZE = 1248;
  /** appid of The Ship, whose info reply carries three extra bytes. */
  public static final int THE_SHIP_APP_ID = 2400;

  static final int SINGLE = 0xFFFF_FFFF; // FF FF FF FF read little-endian
  static final int SPLIT = 0xFFFF_FFFE; // FE FF FF FF read little-endian
  private static final int SPLIT_HEADER = 12;
  private static final byte[] INFO_PAYLOAD = "Source Engine Query".getBytes(UTF_8);
  private static final byte[] INFO_REQUEST = new PacketWriter(25).i32(SINGLE).u8('T')
      .cstring("Source Engine Query", UTF_8).toByteArray();

  private A2sCodec() {}

  // ---------------------------------------------------------------- client side

  /** {@code FF FF FF FF 54 "Source Engine Query" 00}: 25 bytes. */
  public static byte[] encodeInfoRequest() {
    return INFO_REQUEST.clone();
  }

  /** The 25-byte request with the 4 challenge bytes appended as received: 29 bytes. */
  public static byte[] encodeInfoRequest(int challenge) {
    return new PacketWriter(29).bytes(INFO_REQUEST).i32(challenge).toByteArray();
  }

  /** {@code FF FF FF FF 55 <challenge>}; pass -1 to ask for a challenge. */
  public static byte[] encodePlayerRequest(int challenge) {
    return new PacketWriter(9).i32(SINGLE).u8('U').i32(challenge).toByteArray();
  }

  /** {@code FF FF FF FF 56 <challenge>}; pass -1 to ask for a challenge. */
  public static byte[] encodeRulesRequest(int challenge) {
    return new PacketWriter(9).i32(SINGLE).u8('V').i32(challenge).toByteArray();
  }

  /**
   * Decodes one datagram from a server: a challenge, an info/player/rules reply, or one split
   * fragment (feed those to a {@link SplitReassembler}, then decode the result again).
   *
   * @throws MalformedPacketException empty, oversized, truncated, unknown type, bad field
   */
  public static A2sReply decodeReply(ByteBuffer packet) {
    if (packet.remaining() > MAX_PACKET_SIZE) {
      throw new MalformedPacketException("oversized A2S packet: " + packet.remaining() + " bytes (max "
          + MAX_PACKET_SIZE + ")");
    }
    return decodeAny(new PacketReader(packet), false);
  }

  /** {@link #decodeReply(ByteBuffer)} of a reassembled split reply (no size limit of one packet). */
  public static A2sReply decodeReassembled(byte[] reply) {
    return decodeAny(PacketReader.of(reply), true);
  }

  public static A2sReply decodeReply(byte[] packet) {
    return decodeReply(ByteBuffer.wrap(packet));
  }

  private static A2sReply decodeAny(PacketReader r, boolean reassembled) {
    if (r.remaining() < 5) {
      throw new MalformedPacketException("truncated: A2S packet of " + r.remaining() + " bytes");
    }
    int header = r.i32("header");
    if (header == SPLIT) {
      if (reassembled) {
        throw new MalformedPacketException("split reply nested in a split reply");
      }
      return decodeSplit(r);
    }
    if (header != SINGLE) {
      throw new MalformedPacketException(String.format("not A2S: header %08X", Integer.reverseBytes(header)));
    }
    int type = r.u8("type");
    A2sReply reply = switch (type) {
      case 0x41 -> new A2sChallenge(r.i32("challenge"));
      case 0x49 -> decodeSourceInfo(r);
      case 0x6D -> decodeGoldSrcInfo(r);
      case 0x44 -> decodePlayers(r);
      case 0x45 -> decodeRules(r);
      default -> throw new MalformedPacketException(String.format("unknown A2S reply type 0x%02X", type));
    };
    if (reply instanceof A2sChallenge && r.hasRemaining()) {
      throw new MalformedPacketException("challenge reply with " + r.remaining() + " trailing bytes");
    }
    return reply;
  }

  private static A2sSplitFragment decodeSplit(PacketReader r) {
    int id = r.i32("split id");
    int total = r.u8("split total");
    int number = r.u8("split number");
    int size = r.u16("split size");
    if (total == 0 || number >= total) {
      throw new MalformedPacketException("split fragment " + number + " of " + total);
    }
    return new A2sSplitFragment(id, total, number, size, r.rest());
  }

  private static A2sInfo decodeSourceInfo(PacketReader r) {
    int protocol = r.u8("protocol");
    String name = r.cstring("name", UTF_8);
    String map = r.cstring("map", UTF_8);
    String folder = r.cstring("folder", UTF_8);
    String game = r.cstring("game", UTF_8);
    int appId = r.u16("appid");
    int players = r.u8("players");
    int maxPlayers = r.u8("max players");
    int bots = r.u8("bots");
    char type = Character.toLowerCase((char) r.u8("server type"));
    char env = Character.toLowerCase((char) r.u8("environment"));
    int visibility = r.u8("visibility");
    int vac = r.u8("vac");
    if (appId == THE_SHIP_APP_ID) {
      r.u8("the ship mode");
      r.u8("the ship witnesses");
      r.u8("the ship duration");
    }
    String version = r.cstring("version", UTF_8);
    int port = 0;
    long steamId = 0;
    long gameId = 0;
    String keywords = "";
    if (r.hasRemaining()) {
      int edf = r.u8("extra data flag");
      if ((edf & 0x80) != 0) {
        port = r.u16("EDF port");
      }
      if ((edf & 0x10) != 0) {
        steamId = r.i64("EDF steam id");
      }
      if ((edf & 0x40) != 0) {
        r.u16("EDF SourceTV port");
        r.cstring("EDF SourceTV name", UTF_8);
      }
      if ((edf & 0x20) != 0) {
        keywords = r.cstring("EDF keywords", UTF_8);
      }
      if ((edf & 0x01) != 0) {
        gameId = r.i64("EDF game id");
      }
    }
    if (r.hasRemaining()) {
      throw new MalformedPacketException("A2S_INFO reply with " + r.remaining() + " trailing bytes");
    }
    long fullAppId = gameId != 0 ? (gameId & 0xFF_FFFFL) : appId;
    ServerInfo info = ServerInfo.newBuilder()
        .setName(name).setMap(map).setGame(folder).setGameDescription(game)
        .setPlayers(players).setMaxPlayers(maxPlayers).setBots(bots)
        .setPassword(visibility != 0).setSecure(vac != 0)
        .setVersion(version).setAppId((int) fullAppId).setGameType(keywords)
        .build();
    return new A2sInfo(info, 'I', protocol, type, env, port, steamId, gameId);
  }

  private static A2sInfo decodeGoldSrcInfo(PacketReader r) {
    r.cstring("address", UTF_8);
    String name = r.cstring("name", UTF_8);
    String map = r.cstring("map", UTF_8);
    String folder = r.cstring("folder", UTF_8);
    String game = r.cstring("game", UTF_8);
    int players = r.u8("players");
    int maxPlayers = r.u8("max players");
    int protocol = r.u8("protocol");
    char type = Character.toLowerCase((char) r.u8("server type"));
    char env = Character.toLowerCase((char) r.u8("environment"));
    int visibility = r.u8("visibility");
    int mod = r.u8("mod");
    if (mod == 1) {
      r.cstring("mod link", UTF_8);
      r.cstring("mod download link", UTF_8);
      r.u8("mod null byte");
      r.i32("mod version");
      r.i32("mod size");
      r.u8("mod type");
      r.u8("mod dll");
    }
    int vac = r.u8("vac");
    int bots = r.u8("bots");
    ServerInfo info = ServerInfo.newBuilder()
        .setName(name).setMap(map).setGame(folder).setGameDescription(game)
        .setPlayers(players).setMaxPlayers(maxPlayers).setBots(bots)
        .setPassword(visibility != 0).setSecure(vac != 0)
        .setVersion(Integer.toString(protocol))
        .build();
    return new A2sInfo(info, 'm', protocol, type, env, 0, 0, 0);
  }

  private static A2sPlayers decodePlayers(PacketReader r) {
    int count = r.u8("player count");
    List<A2sPlayer> players = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      players.add(new A2sPlayer(r.u8("player index"), r.cstring("player name", UTF_8),
          r.i32("player score"), r.f32("player duration")));
    }
    return new A2sPlayers(players);
  }

  private static A2sRules decodeRules(PacketReader r) {
    int count = r.u16("rule count");
    Map<String, String> rules = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      rules.put(r.cstring("rule name", UTF_8), r.cstring("rule value", UTF_8));
    }
    return new A2sRules(Collections.unmodifiableMap(rules));
  }

  // ---------------------------------------------------------------- server side

  /**
   * Decodes a client query: A2S_INFO (25 bytes, or 29 with a challenge), A2S_PLAYER or A2S_RULES
   * (9 bytes).
   *
   * @throws MalformedPacketException anything else
   */
  public static A2sRequest decodeRequest(ByteBuffer packet) {
    if (packet.remaining() > MAX_PACKET_SIZE) {
      throw new MalformedPacketException("oversized A2S request: " + packet.remaining() + " bytes");
    }
    PacketReader r = new PacketReader(packet);
    r.expectHeader(SINGLE, "A2S request");
    int type = r.u8("type");
    switch (type) {
      case 'T' -> {
        byte[] payload = r.bytes(INFO_PAYLOAD.length + 1, "query string");
        for (int i = 0; i < INFO_PAYLOAD.length; i++) {
          if (payload[i] != INFO_PAYLOAD[i]) {
            throw new MalformedPacketException("A2S_INFO request without \"Source Engine Query\"");
          }
        }
        if (payload[INFO_PAYLOAD.length] != 0) {
          throw new MalformedPacketException("A2S_INFO query string not NUL-terminated");
        }
        if (!r.hasRemaining()) {
          return new A2sRequest(A2sRequest.Type.INFO, false, 0);
        }
        int challenge = r.i32("challenge");
        if (r.hasRemaining()) {
          throw new MalformedPacketException("A2S_INFO request with " + r.remaining() + " trailing bytes");
        }
        return new A2sRequest(A2sRequest.Type.INFO, true, challenge);
      }
      case 'U', 'V' -> {
        int challenge = r.i32("challenge");
        if (r.hasRemaining()) {
          throw new MalformedPacketException("A2S request with " + r.remaining() + " trailing bytes");
        }
        return new A2sRequest(type == 'U' ? A2sRequest.Type.PLAYER : A2sRequest.Type.RULES, true, challenge);
      }
      default -> throw new MalformedPacketException(String.format("unknown A2S request type 0x%02X", type));
    }
  }

  /** {@code FF FF FF FF 41 <challenge>}: 9 bytes. */
  public static byte[] encodeChallenge(int challenge) {
    return new PacketWriter(9).i32(SINGLE).u8(0x41).i32(challenge).toByteArray();
  }

  /**
   * A Source A2S_INFO reply ({@code 0x49}, protocol 17, dedicated Linux server) for {@code info}.
   * EDF carries the game port when {@code gamePort > 0}, the keywords when {@code game_type} is
   * set and the GameID when {@code app_id} is set. Counts above 255 are clamped to 255.
   *
   * @throws IllegalArgumentException the reply would exceed {@link #MAX_PACKET_SIZE}
   */
  public static byte[] encodeInfo(ServerInfo info, int gamePort) {
    PacketWriter w = new PacketWriter(MAX_PACKET_SIZE).i32(SINGLE).u8(0x49).u8(17)
        .cstring(info.getName(), UTF_8).cstring(info.getMap(), UTF_8)
        .cstring(info.getGame(), UTF_8).cstring(info.getGameDescription(), UTF_8)
        .u16(info.getAppId() & 0xFFFF)
        .u8(clamp(info.getPlayers())).u8(clamp(info.getMaxPlayers())).u8(clamp(info.getBots()))
        .u8('d').u8('l').u8(info.getPassword() ? 1 : 0).u8(info.getSecure() ? 1 : 0);
    if ((info.getAppId() & 0xFFFF) == THE_SHIP_APP_ID) {
      w.u8(0).u8(0).u8(0);
    }
    w.cstring(info.getVersion(), UTF_8);
    int edf = (gamePort > 0 ? 0x80 : 0) | (info.getGameType().isEmpty() ? 0 : 0x20) | (info.getAppId() != 0 ? 0x01 : 0);
    if (edf != 0) {
      w.u8(edf);
      if (gamePort > 0) {
        w.u16(gamePort);
      }
      if (!info.getGameType().isEmpty()) {
        w.cstring(info.getGameType(), UTF_8);
      }
      if (info.getAppId() != 0) {
        w.i64(Integer.toUnsignedLong(info.getAppId()) & 0xFF_FFFFL);
      }
    }
    return w.toByteArray();
  }

  /** An A2S_PLAYER reply ({@code 0x44}). */
  public static byte[] encodePlayers(List<A2sPlayer> players) {
    PacketWriter w = new PacketWriter(MAX_PACKET_SIZE).i32(SINGLE).u8(0x44).u8(clamp(players.size()));
    for (A2sPlayer p : players.subList(0, clamp(players.size()))) {
      w.u8(p.index()).cstring(p.name(), UTF_8).i32(p.score()).f32(p.durationSeconds());
    }
    return w.toByteArray();
  }

  /**
   * An A2S_RULES reply ({@code 0x45}) as one unsplit payload (may exceed one packet: pass it to
   * {@link #encodeSplit}).
   */
  public static byte[] encodeRules(Map<String, String> rules) {
    PacketWriter w = new PacketWriter(SplitReassembler.MAX_FRAGMENTS * DEFAULT_SPLIT_SIZE)
        .i32(SINGLE).u8(0x45).u16(rules.size());
    rules.forEach((k, v) -> w.cstring(k, UTF_8).cstring(v, UTF_8));
    return w.toByteArray();
  }

  /**
   * Splits a whole reply (starting {@code FF FF FF FF}) into Source-format fragments of at most
   * {@code fragmentPayload} bytes each; a reply that fits in one packet is returned as is.
   */
  public static List<byte[]> encodeSplit(int id, byte[] reply, int fragmentPayload) {
    if (fragmentPayload < 1 || fragmentPayload > MAX_PACKET_SIZE - SPLIT_HEADER) {
      throw new IllegalArgumentException("fragment payload " + fragmentPayload);
    }
    if (reply.length <= MAX_PACKET_SIZE) {
      return List.of(reply.clone());
    }
    int total = (reply.length + fragmentPayload - 1) / fragmentPayload;
    if (total > SplitReassembler.MAX_FRAGMENTS) {
      throw new IllegalArgumentException("reply of " + reply.length + " bytes needs " + total + " fragments");
    }
    List<byte[]> out = new ArrayList<>(total);
    for (int i = 0; i < total; i++) {
      int from = i * fragmentPayload;
      int len = Math.min(fragmentPayload, reply.length - from);
      PacketWriter w = new PacketWriter(SPLIT_HEADER + len).i32(SPLIT).i32(id & 0x7FFF_FFFF)
          .u8(total).u8(i).u16(fragmentPayload);
      w.bytes(Arrays.copyOfRange(reply, from, from + len));
      out.add(w.toByteArray());
    }
    return out;
  }

  private static int clamp(int n) {
    return Math.min(Math.max(n, 0), 255);
  }
}
