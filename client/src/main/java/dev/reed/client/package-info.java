/**
 * The REED client SDK: {@link dev.reed.client.ReedClient} finds the game servers nearest to this
 * machine with a few dozen probes, driving the coordinates module's discovery policy over the
 * coordinator's gRPC API and real game queries; it also runs traditional discovery and ranks
 * servers for a group. Everything but the API types is package-private.
 */
package dev.reed.client;
