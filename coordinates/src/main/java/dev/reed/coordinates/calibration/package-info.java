/**
 * Choosing the calibration servers a client probes first to position itself (REED Algorithm 3):
 * accurate candidates, spread in coordinate space.
 */
package dev.reed.coordinates.calibration;
