package dev.reed.probe.a2s;

import java.util.List;

/** A decoded A2S_PLAYER reply ({@code 0x44}). */
public record A2sPlayers(List<A2sPlayer> players) implements A2sReply {
  public A2sPlayers {
    players = List.copyOf(players);
  }
}
