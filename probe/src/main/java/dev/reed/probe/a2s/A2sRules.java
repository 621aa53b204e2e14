package dev.reed.probe.a2s;

import java.util.Map;

/** A decoded A2S_RULES reply ({@code 0x45}), rules in the order the server sent them. */
record A2sRules(Map<String, String> rules) implements A2sReply {}
