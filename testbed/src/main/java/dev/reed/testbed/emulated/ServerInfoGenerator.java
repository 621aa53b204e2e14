package dev.reed.testbed.emulated;

import dev.reed.proto.v1.GameProtocol;
import dev.reed.proto.v1.ServerInfo;
import dev.reed.testbed.world.Host;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Deterministic, realistic-looking server descriptions for emulated game servers: Counter-Strike:
 * Source servers for A2S and OpenArena servers for Quake3, with real map names, player counts
 * skewed the way master lists look (many empty servers, some full ones), some passworded. The
 * REED client filters on exactly these attributes (game, map, players, not full, not empty,
 * password), so tests and the demo need a believable mix. Same seed and server number, same info.
 */
final class ServerInfoGenerator {
  static final List<String> CSS_MAPS = List.of("de_dust2", "de_dust2", "de_dust2", "de_inferno", "de_inferno",
      "de_nuke", "de_train", "de_aztec", "de_cbble", "de_dust", "de_piranesi", "de_prodigy", "de_chateau",
      "de_port", "de_tides", "cs_office", "cs_office", "cs_italy", "cs_assault", "cs_compound", "cs_havana",
      "cs_militia", "aim_map", "awp_india", "fy_iceworld", "surf_ski_2", "gg_simpsons", "zm_lila_panic");
  static final List<String> OA_MAPS = List.of("oa_dm1", "oa_dm1", "oa_dm2", "oa_dm3", "oa_dm4", "oa_dm5",
      "oa_dm6", "oa_dm7", "oa_rpg3dm2", "oasago2", "oa_ctf2", "oa_ctf4a", "am_galmevish", "am_thornish",
      "am_underworks", "ps37ctf", "wrackdm17", "hydronex", "aggressor", "oa_bases3");
  private static final List<String> CSS_STYLES = List.of("Public", "24/7 Dust2", "Competitive", "Deathmatch",
      "Zombie Mod", "Surf", "GunGame", "Jailbreak", "AWP only", "Fun", "Classic", "Clan server");
  private static final List<String> OA_STYLES = List.of("Public FFA", "Instagib", "CTF", "Team Deathmatch",
      "Duel", "Noobs welcome", "Elimination", "Clan wars");
  private static final List<String> BRANDS = List.of("FragZone", "Headshot Heaven", "OldSchool", "Pixel Arena",
      "LAN Legends", "NightOwls", "Rocket Rats", "Quadrant", "Fair Play", "Blue Sky", "Iron Lung", "Tick64");
  private static final int[] CSS_SLOTS = {12, 16, 20, 24, 24, 32, 32, 64};
  private static final int[] OA_SLOTS = {8, 10, 12, 16, 16, 24};

  private final long seed;

  public ServerInfoGenerator(long seed) {
    this.seed = seed;
  }

  /**
   * The description of server number {@code n} hosted at {@code host} for {@code protocol}.
   *
   * @throws IllegalArgumentException for {@link GameProtocol#GAME_PROTOCOL_UNSPECIFIED}
   */
  public ServerInfo generate(int n, GameProtocol protocol, Host host) {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + n);
    boolean a2s = switch (protocol) {
      case GAME_PROTOCOL_A2S -> true;
      case GAME_PROTOCOL_QUAKE3 -> false;
      default -> throw new IllegalArgumentException("no server info for protocol " + protocol);
    };
    int[] slots = a2s ? CSS_SLOTS : OA_SLOTS;
    int max = slots[r.nextInt(slots.length)];
    double u = r.nextDouble();
    int players = u < 0.45 ? 0 : u < 0.55 ? max : 1 + r.nextInt(max - 1);   // 45 % empty, 10 % full
    int bots = players == 0 || r.nextDouble() < 0.7 ? 0 : r.nextInt(players + 1);
    boolean password = r.nextDouble() < 0.08;
    String brand = BRANDS.get(r.nextInt(BRANDS.size()));
    String where = host.city() != null ? host.city() : host.region().name();
    String style = (a2s ? CSS_STYLES : OA_STYLES).get(r.nextInt((a2s ? CSS_STYLES : OA_STYLES).size()));
    String name = "[" + host.region().name() + "] " + brand + " " + where + " #" + (1 + r.nextInt(9)) + " | " + style;
    ServerInfo.Builder b = ServerInfo.newBuilder()
        .setName(name)
        .setPlayers(players)
        .setMaxPlayers(max)
        .setBots(bots)
        .setPassword(password);
    if (a2s) {
      return b.setMap(CSS_MAPS.get(r.nextInt(CSS_MAPS.size())))
          .setGame("cstrike")
          .setGameDescription("Counter-Strike: Source")
          .setAppId(240)
          .setVersion("9540945")
          .setSecure(r.nextDouble() < 0.9)
          .build();
    }
    String gametype = switch (r.nextInt(6)) {
      case 0, 1, 2 -> "0";
      case 3 -> "3";
      case 4 -> "4";
      default -> "1";
    };
    return b.setMap(OA_MAPS.get(r.nextInt(OA_MAPS.size())))
        .setGame("Quake3Arena") // what real OpenArena servers report as gamename in getinfo
        .setVersion("71")
        .setGameType(gametype)
        .setSecure(r.nextDouble() < 0.6)
        .build();
  }
}
