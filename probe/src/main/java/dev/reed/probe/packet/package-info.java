/**
 * Bounds-checked reading and writing of game-query datagrams, and the exceptions for malformed or
 * unsupported packets.
 */
package dev.reed.probe.packet;
