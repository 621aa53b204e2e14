package dev.reed.probe.quake3;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import dev.reed.probe.packet.MalformedPacketException;
import dev.reed.probe.packet.PacketReader;
import dev.reed.probe.packet.PacketWriter;
import dev.reed.proto.v1.ServerInfo;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.random.RandomGenerator;

/**
 * Quake III family connectionless queries (ioquake3 {@code sv_main.c} SVC_Info/SVC_Status,
 * {@code cl_main.c}; docs/protocols.md): {@code getinfo <challenge>} / {@code getstatus <challenge>}
 * and their infoResponse / statusResponse. A random challenge per probe lets the prober match a
 * reply to its probe and reject spoofed or stale replies (REED probes real servers, Armitage &amp;
 * Heyde 2011 section 6.3, so every reply is untrusted input).
 *
 * <p>Client side: {@link #newChallenge}, {@link #encodeGetInfo}, {@link #encodeGetStatus},
 * {@link #decodeReply}. Server side: {@link #decodeRequest}, {@link #encodeInfoResponse},
 * {@link #encodeStatusResponse}. Text is ISO-8859-1 (Quake3 strings are bytes; colour codes are
 * kept). Decoders throw only {@link MalformedPacketException}; stateless and thread-safe.
 */
public final class Quake3Codec {
  /** ioquake3's MAX_MSGLEN: no connectionless packet is longer. */
  public static final int MAX_PACKET_SIZE = 16384;
  /** ioquake3 ignores getinfo/getstatus with a longer challenge. */
  public static final int MAX_CHALLENGE_LENGTH = 128;
  /** Largest request this codec accepts on the server side. */
  public static final int MAX_REQUEST_SIZE = 4 + 10 + MAX_CHALLENGE_LENGTH + 2;

  private static final int HEADER = 0xFFFF_FFFF;
  private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

  private Quake3Codec() {}

  // ---------------------------------------------------------------- client side

  /** A fresh 12-character alphanumeric challenge (~71 bits), safe inside an infostring. */
  public static String newChallenge(RandomGenerator rng) {
    char[] c = new char[12];
    for (int i = 0; i < c.length; i++) {
      c[i] = ALPHABET.charAt(rng.nextInt(ALPHABET.length()));
    }
    return new String(c);
  }

  /** {@code FF FF FF FF "getinfo <challenge>"}. */
  public static byte[] encodeGetInfo(String challenge) {
    return command("getinfo", challenge);
  }

  /** {@code FF FF FF FF "getstatus <challenge>"}. */
  public static byte[] encodeGetStatus(String challenge) {
    return command("getstatus", challenge);
  }

  private static byte[] command(String command, String challenge) {
    checkChallenge(challenge);
    return new PacketWriter(MAX_REQUEST_SIZE).i32(HEADER).text(command + " " + challenge, ISO_8859_1).toByteArray();
  }

  private static void checkChallenge(String challenge) {
    if (challenge.isEmpty() || challenge.length() > MAX_CHALLENGE_LENGTH) {
      throw new IllegalArgumentException("challenge must have 1-" + MAX_CHALLENGE_LENGTH + " characters");
    }
    for (int i = 0; i < challenge.length(); i++) {
      char ch = challenge.charAt(i);
      if (ch <= ' ' || ch > '~' || ch == '\\' || ch == '"' || ch == ';') {
        throw new IllegalArgumentException("challenge character not allowed in an infostring: " + (int) ch);
      }
    }
  }

  public static Quake3Reply decodeReply(byte[] packet) {
    return decodeReply(ByteBuffer.wrap(packet));
  }

  /**
   * Decodes an infoResponse or statusResponse (command case-insensitive, keys in any order).
   *
   * @throws MalformedPacketException empty, oversized, not a Quake3 reply, bad infostring or
   *     player line, non-numeric counts
   */
  public static Quake3Reply decodeReply(ByteBuffer packet) {
    if (packet.remaining() > MAX_PACKET_SIZE) {
      throw new MalformedPacketException("oversized Quake3 packet: " + packet.remaining() + " bytes (max "
          + MAX_PACKET_SIZE + ")");
    }
    PacketReader r = new PacketReader(packet);
    r.expectHeader(HEADER, "Quake3 connectionless");
    String text = new String(r.rest(), ISO_8859_1);
    int nul = text.indexOf('\0');
    if (nul >= 0) {
      if (!text.substring(nul).chars().allMatch(c -> c == 0)) {
        throw new MalformedPacketException("Quake3 reply with data after a NUL");
      }
      text = text.substring(0, nul);
    }
    int eol = text.indexOf('\n');
    if (eol < 0) {
      throw new MalformedPacketException("truncated: Quake3 reply without a newline after the command");
    }
    String command = text.substring(0, eol).strip();
    String body = text.substring(eol + 1);
    if (command.equalsIgnoreCase("infoResponse")) {
      String line = body.endsWith("\n") ? body.substring(0, body.length() - 1) : body;
      if (line.indexOf('\n') >= 0) {
        throw new MalformedPacketException("infoResponse with more than one line");
      }
      Map<String, String> info = parseInfostring(line);
      return new Quake3Reply(Quake3Reply.Type.INFO, info, List.of(), infoToServerInfo(info));
    }
    if (command.equalsIgnoreCase("statusResponse")) {
      int eol2 = body.indexOf('\n');
      String cvarLine = eol2 < 0 ? body : body.substring(0, eol2);
      Map<String, String> cvars = parseInfostring(cvarLine);
      List<Quake3Player> players = new ArrayList<>();
      if (eol2 >= 0) {
        for (String line : body.substring(eol2 + 1).split("\n")) {
          if (!line.isBlank()) {
            players.add(parsePlayer(line));
          }
        }
      }
      return new Quake3Reply(Quake3Reply.Type.STATUS, cvars, players, statusToServerInfo(cvars, players));
    }
    throw new MalformedPacketException("not a Quake3 info/status reply: command \"" + abbreviate(command) + "\"");
  }

  static Map<String, String> parseInfostring(String s) {
    Map<String, String> out = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    if (s.isEmpty()) {
      return Collections.unmodifiableMap(out);
    }
    if (s.charAt(0) != '\\') {
      throw new MalformedPacketException("infostring does not start with a backslash: \"" + abbreviate(s) + "\"");
    }
    String[] parts = s.substring(1).split("\\\\", -1);
    if (parts.length % 2 != 0) {
      throw new MalformedPacketException("infostring key \"" + abbreviate(parts[parts.length - 1]) + "\" has no value");
    }
    for (int i = 0; i < parts.length; i += 2) {
      if (parts[i].isEmpty()) {
        throw new MalformedPacketException("infostring with an empty key");
      }
      if (out.putIfAbsent(parts[i], parts[i + 1]) != null) {
        throw new MalformedPacketException("infostring repeats key \"" + abbreviate(parts[i]) + "\"");
      }
    }
    return Collections.unmodifiableMap(out);
  }

  private static Quake3Player parsePlayer(String line) {
    String[] f = line.strip().split(" ", 3);
    if (f.length < 3 || f[2].length() < 2 || f[2].charAt(0) != '"' || f[2].charAt(f[2].length() - 1) != '"') {
      throw new MalformedPacketException("bad player line \"" + abbreviate(line) + "\"");
    }
    return new Quake3Player(integer(f[0], "player score", true), integer(f[1], "player ping", false),
        f[2].substring(1, f[2].length() - 1));
  }

  private static ServerInfo infoToServerInfo(Map<String, String> info) {
    int clients = count(info, "clients");
    int humans = info.containsKey("g_humanplayers") ? count(info, "g_humanplayers") : clients;
    if (humans > clients) {
      throw new MalformedPacketException("g_humanplayers " + humans + " > clients " + clients);
    }
    return ServerInfo.newBuilder()
        .setName(info.getOrDefault("hostname", info.getOrDefault("sv_hostname", "")))
        .setMap(info.getOrDefault("mapname", ""))
        .setGame(info.getOrDefault("gamename", info.getOrDefault("game", "")))
        .setPlayers(clients)
        .setMaxPlayers(count(info, "sv_maxclients"))
        .setBots(clients - humans)
        .setPassword(flag(info, "g_needpass"))
        .setSecure(flag(info, "pure"))
        .setVersion(info.getOrDefault("protocol", ""))
        .setGameType(info.getOrDefault("gametype", ""))
        .build();
  }

  private static ServerInfo statusToServerInfo(Map<String, String> cvars, List<Quake3Player> players) {
    int bots = (int) players.stream().filter(p -> p.ping() == 0).count();
    return ServerInfo.newBuilder()
        .setName(cvars.getOrDefault("sv_hostname", cvars.getOrDefault("hostname", "")))
        .setMap(cvars.getOrDefault("mapname", ""))
        .setGame(cvars.getOrDefault("gamename", cvars.getOrDefault("game", "")))
        .setPlayers(players.size())
        .setMaxPlayers(count(cvars, "sv_maxclients"))
        .setBots(bots)
        .setPassword(flag(cvars, "g_needpass"))
        .setSecure(flag(cvars, "sv_pure"))
        .setVersion(cvars.getOrDefault("protocol", cvars.getOrDefault("com_protocol", "")))
        .setGameType(cvars.getOrDefault("g_gametype", cvars.getOrDefault("gametype", "")))
        .build();
  }

  private static int count(Map<String, String> info, String key) {
    String v = info.get(key);
    return v == null ? 0 : integer(v, key, false);
  }

  private static boolean flag(Map<String, String> info, String key) {
    String v = info.get(key);
    return v != null && !v.isEmpty() && !v.equals("0");
  }

  private static int integer(String v, String field, boolean signed) {
    String t = v.strip();
    if (t.isEmpty() || t.length() > 9 || !t.chars().allMatch(c -> (c >= '0' && c <= '9') || (signed && c == '-'))) {
      throw new MalformedPacketException(field + " is not a " + (signed ? "" : "non-negative ") + "number: \""
          + abbreviate(v) + "\"");
    }
    try {
      return Integer.parseInt(t);
    } catch (NumberFormatException e) {
      throw new MalformedPacketException(field + " is not a number: \"" + abbreviate(v) + "\"");
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }

  // ---------------------------------------------------------------- server side

  /**
   * Decodes a {@code getinfo} or {@code getstatus} query (case-insensitive, terminated by
   * newline, NUL or nothing). The challenge is the first argument; ioquake3 answers nothing when
   * it is longer than {@link #MAX_CHALLENGE_LENGTH}, so that is malformed here too.
   *
   * @throws MalformedPacketException any other packet
   */
  public static Quake3Request decodeRequest(ByteBuffer packet) {
    if (packet.remaining() > MAX_REQUEST_SIZE) {
      throw new MalformedPacketException("oversized Quake3 request: " + packet.remaining() + " bytes");
    }
    PacketReader r = new PacketReader(packet);
    r.expectHeader(HEADER, "Quake3 connectionless");
    String text = new String(r.rest(), ISO_8859_1);
    int end = text.length();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\0') {
        end = i;
        break;
      }
    }
    String[] args = text.substring(0, end).strip().split("\\s+", 3);
    Quake3Request.Type type;
    if (args[0].equalsIgnoreCase("getinfo")) {
      type = Quake3Request.Type.GETINFO;
    } else if (args[0].equalsIgnoreCase("getstatus")) {
      type = Quake3Request.Type.GETSTATUS;
    } else {
      throw new MalformedPacketException("not a Quake3 query: \"" + abbreviate(args[0]) + "\"");
    }
    String challenge = args.length > 1 ? args[1] : "";
    if (challenge.length() > MAX_CHALLENGE_LENGTH) {
      throw new MalformedPacketException("Quake3 challenge longer than " + MAX_CHALLENGE_LENGTH + " characters");
    }
    if (challenge.indexOf('\\') >= 0 || challenge.indexOf('"') >= 0 || challenge.indexOf(';') >= 0) {
      throw new MalformedPacketException("Quake3 challenge with a character not allowed in an infostring");
    }
    return new Quake3Request(type, challenge);
  }

  /**
   * {@code FF FF FF FF "infoResponse\n\challenge\...\gamename\...\protocol\...\hostname\..."}
   * with the keys ioquake3's SVC_Info sends; the challenge is omitted when empty.
   */
  public static byte[] encodeInfoResponse(ServerInfo info, String challenge) {
    StringBuilder sb = new StringBuilder("infoResponse\n");
    if (!challenge.isEmpty()) {
      pair(sb, "challenge", challenge);
    }
    pair(sb, "gamename", info.getGame());
    pair(sb, "protocol", info.getVersion());
    pair(sb, "hostname", info.getName());
    pair(sb, "mapname", info.getMap());
    pair(sb, "clients", Integer.toString(info.getPlayers()));
    pair(sb, "g_humanplayers", Integer.toString(Math.max(0, info.getPlayers() - info.getBots())));
    pair(sb, "sv_maxclients", Integer.toString(info.getMaxPlayers()));
    pair(sb, "gametype", info.getGameType());
    pair(sb, "pure", info.getSecure() ? "1" : "0");
    pair(sb, "g_needpass", info.getPassword() ? "1" : "0");
    return packet(sb);
  }

  /**
   * {@code FF FF FF FF "statusResponse\n"} + server cvars + {@code \n} + one line per player.
   * Bots are the players with ping 0 (as ioquake3 reports them).
   */
  public static byte[] encodeStatusResponse(ServerInfo info, String challenge, List<Quake3Player> players) {
    StringBuilder sb = new StringBuilder("statusResponse\n");
    if (!challenge.isEmpty()) {
      pair(sb, "challenge", challenge);
    }
    pair(sb, "sv_hostname", info.getName());
    pair(sb, "mapname", info.getMap());
    pair(sb, "gamename", info.getGame());
    pair(sb, "protocol", info.getVersion());
    pair(sb, "sv_maxclients", Integer.toString(info.getMaxPlayers()));
    pair(sb, "g_gametype", info.getGameType());
    pair(sb, "sv_pure", info.getSecure() ? "1" : "0");
    pair(sb, "g_needpass", info.getPassword() ? "1" : "0");
    sb.append('\n');
    for (Quake3Player p : players) {
      if (p.name().indexOf('"') >= 0 || p.name().indexOf('\n') >= 0) {
        throw new IllegalArgumentException("player name with a quote or newline: " + p.name());
      }
      sb.append(p.score()).append(' ').append(p.ping()).append(" \"").append(p.name()).append("\"\n");
    }
    return packet(sb);
  }

  private static void pair(StringBuilder sb, String key, String value) {
    if (value.indexOf('\\') >= 0 || value.indexOf('\n') >= 0 || value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("value of " + key + " has a backslash, newline or NUL: " + value);
    }
    sb.append('\\').append(key).append('\\').append(value);
  }

  private static byte[] packet(StringBuilder sb) {
    byte[] text = sb.toString().getBytes(ISO_8859_1);
    if (4 + text.length > MAX_PACKET_SIZE) {
      throw new IllegalArgumentException("packet would exceed " + MAX_PACKET_SIZE + " bytes");
    }
    // sized to the reply, not to MAX_PACKET_SIZE: the demo's emulated servers answer thousands a
    // second, and a 16 KB buffer each made 38 % of their JVM's allocation (JFR, 20,000 x 30)
    return new PacketWriter(4 + text.length).i32(HEADER).bytes(text).toByteArray();
  }
}
