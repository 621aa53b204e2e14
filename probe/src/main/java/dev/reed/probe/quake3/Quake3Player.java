package dev.reed.probe.quake3;

/** One player line of a statusResponse: {@code <score> <ping> "<name>"} (ping 0 = bot on ioquake3). */
public record Quake3Player(int score, int ping, String name) {}
