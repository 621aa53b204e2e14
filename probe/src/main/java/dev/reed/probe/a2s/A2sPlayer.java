package dev.reed.probe.a2s;

/** One entry of an A2S_PLAYER reply. */
public record A2sPlayer(int index, String name, int score, float durationSeconds) {}
