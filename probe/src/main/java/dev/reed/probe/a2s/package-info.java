/**
 * Valve's A2S server queries (A2S_INFO, A2S_PLAYER, A2S_RULES): requests, replies, challenges
 * and split-packet reassembly.
 */
package dev.reed.probe.a2s;
