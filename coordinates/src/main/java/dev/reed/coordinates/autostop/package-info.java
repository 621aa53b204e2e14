/**
 * When a client stops probing (REED Algorithm 5 and its variants): First and Intelligent N_close,
 * RTT-stop, RTT-limit-delta, and exhaustive.
 */
package dev.reed.coordinates.autostop;
