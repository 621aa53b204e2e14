/**
 * Puts a real UDP server at an emulated distance: a relay that delays each datagram by the path's
 * latency.
 */
package dev.reed.testbed.relay;
