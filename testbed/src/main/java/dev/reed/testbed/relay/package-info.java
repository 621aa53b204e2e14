/**
 * Puts a real UDP server at an emulated distance: a relay that delays each datagram by the path's
 * latency; and a caching query proxy that answers for a real server from a stored reply.
 */
package dev.reed.testbed.relay;
