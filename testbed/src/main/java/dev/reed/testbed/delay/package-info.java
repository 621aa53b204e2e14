/**
 * Sending datagrams at their due time from one thread: the delay line behind the relay and the
 * emulated servers, and real-time priority for it where the OS allows.
 */
package dev.reed.testbed.delay;
